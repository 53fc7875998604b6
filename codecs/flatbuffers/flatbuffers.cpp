// FlatBuffers 2.0.8's generated C++ (flatc): the encoder builds with a
// reused FlatBufferBuilder that writes every scalar (ForceDefaults: a value
// equal to its default, -0.0 among them, would otherwise be left out and
// read back as +0.0); the decoders verify, then copy into records, directly
// or through the object API (UnPackTo); the accessor verifies (or not) and
// reads every field in place.
#include <tuple>

#include "codecs/common/access_fold.hpp"
#include "codecs/flatbuffers/fb_rows.hpp"
#include "codecs/registry.hpp"

namespace wb::flatbuf {
namespace {

namespace fbs = ::flatbuffers;

class Encoder : public EncoderFor<Encoder> {
 public:
  Encoder() { fbb_.ForceDefaults(true); }
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    fbb_.Clear();
    auto& offsets = std::get<std::vector<decltype(build(std::declval<const T&>()))>>(offsets_);
    offsets.clear();
    for (const T& r : rows) offsets.push_back(build(r));
    fbb_.Finish(feed(fbb_.CreateVector(offsets), rows), Fb<T>::id());
    out.assign(reinterpret_cast<const char*>(fbb_.GetBufferPointer()), fbb_.GetSize());
  }

 private:
  fbs::Offset<fb::Message> build(const Message& r) {
    const auto text = fbb_.CreateString(r.MessageText);
    return fb::CreateMessage(fbb_, r.ID, text);
  }
  fbs::Offset<fb::Airport> build(const Airport& r) {
    contacts_.clear();
    for (const Contact& c : r.Contacts) {
      const auto first = fbb_.CreateString(c.FirstName);
      const auto last = fbb_.CreateString(c.LastName);
      contacts_.push_back(fb::CreateContact(fbb_, first, last));
    }
    const auto contacts = fbb_.CreateVector(contacts_);
    const auto name = fbb_.CreateString(r.Name);
    return fb::CreateAirport(fbb_, contacts, r.Latitude, r.Longitude, name);
  }
  fbs::Offset<fb::ScienceRow> build(const ScienceRow& r) {
    const auto partition = fbb_.CreateString(r.PartitionKey);
    const auto row = fbb_.CreateString(r.RowKey);
    return fb::CreateScienceRow(fbb_, partition, row, r.Timestamp.ticks, r.X, r.Y, r.Temp,
                                r.Humidity, r.Pressure, r.Wind);
  }
  template <class V>
  fbs::Offset<void> feed(V rows, const std::vector<Message>&) {
    return fb::CreateMessageFeed(fbb_, rows).Union();
  }
  template <class V>
  fbs::Offset<void> feed(V rows, const std::vector<Airport>&) {
    return fb::CreateAirportFeed(fbb_, rows).Union();
  }
  template <class V>
  fbs::Offset<void> feed(V rows, const std::vector<ScienceRow>&) {
    return fb::CreateScienceFeed(fbb_, rows).Union();
  }

  fbs::FlatBufferBuilder fbb_{64 * 1024};
  std::vector<fbs::Offset<fb::Contact>> contacts_;
  std::tuple<std::vector<fbs::Offset<fb::Message>>, std::vector<fbs::Offset<fb::Airport>>,
             std::vector<fbs::Offset<fb::ScienceRow>>>
      offsets_;
};

std::string copy(const fbs::String* s) {
  return std::string(view(s));
}

void read(const fb::Message& m, Message& r) {
  r.ID = m.id();
  r.MessageText = view(m.message_text());
}
void read(const fb::Airport& m, Airport& r) {
  if (const auto* contacts = m.contacts()) {
    r.Contacts.reserve(contacts->size());
    for (const fb::Contact* c : *contacts)
      r.Contacts.push_back({copy(c->first_name()), copy(c->last_name())});
  }
  r.Latitude = m.latitude();
  r.Longitude = m.longitude();
  r.Name = view(m.name());
}
void read(const fb::ScienceRow& m, ScienceRow& r) {
  r.PartitionKey = view(m.partition_key());
  r.RowKey = view(m.row_key());
  r.Timestamp.ticks = m.timestamp();
  r.X = m.x();
  r.Y = m.y();
  r.Temp = m.temp();
  r.Humidity = m.humidity();
  r.Pressure = m.pressure();
  r.Wind = m.wind();
}

std::size_t verify_only(std::string_view input) {
  return with_feed_type(input, [&]<class T>() -> std::size_t {
    const auto* rows = root<T>(input, true)->value();
    return (rows ? rows->size() : 0) + 1;
  });
}

class Decoder : public DecoderFor<Decoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    const auto* rows = root<T>(aligned_(input), true)->value();
    if (!rows) return;
    out.reserve(rows->size());
    for (const auto* m : *rows) read(*m, out.emplace_back());
  }
  std::size_t parse_only(std::string_view input) override { return verify_only(aligned_(input)); }

 private:
  Aligned aligned_;
};

void read(const fb::MessageT& m, Message& r) {
  r.ID = m.id;
  r.MessageText = m.message_text;
}
void read(const fb::AirportT& m, Airport& r) {
  r.Contacts.reserve(m.contacts.size());
  for (const auto& c : m.contacts) r.Contacts.push_back({c->first_name, c->last_name});
  r.Latitude = m.latitude;
  r.Longitude = m.longitude;
  r.Name = m.name;
}
void read(const fb::ScienceRowT& m, ScienceRow& r) {
  r.PartitionKey = m.partition_key;
  r.RowKey = m.row_key;
  r.Timestamp.ticks = m.timestamp;
  r.X = m.x;
  r.Y = m.y;
  r.Temp = m.temp;
  r.Humidity = m.humidity;
  r.Pressure = m.pressure;
  r.Wind = m.wind;
}

class ObjectDecoder : public DecoderFor<ObjectDecoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    const auto* feed = root<T>(aligned_(input), true);
    auto& objects = std::get<typename Fb<T>::FeedT>(objects_);
    objects.value.clear();  // UnPackTo leaves an absent vector's old rows in place
    feed->UnPackTo(&objects);
    out.reserve(objects.value.size());
    for (const auto& m : objects.value) read(*m, out.emplace_back());
  }
  std::size_t parse_only(std::string_view input) override { return verify_only(aligned_(input)); }

 private:
  Aligned aligned_;
  std::tuple<fb::MessageFeedT, fb::AirportFeedT, fb::ScienceFeedT> objects_;
};

class Accessor : public AccessorFor<Accessor> {
 public:
  template <class T, class Fold>
  void walk(std::string_view input, bool verify, Fold& fold) {
    const auto* rows = root<T>(aligned_(input), verify)->value();
    fold.rows(rows ? rows->size() : 0);
    if (rows)
      for (const auto* m : *rows) walk_row(*m, fold);
  }

 private:
  Aligned aligned_;
};

}  // namespace
}  // namespace wb::flatbuf

WB_DEFINE_ENCODER(flatbuffers, flatbuffers, wb::flatbuf::Encoder)
WB_DEFINE_DECODER(flatbuffers, flatbuffers, wb::flatbuf::Decoder)
WB_DEFINE_DECODER(flatbuffers, flatbuffers_object, wb::flatbuf::ObjectDecoder)
WB_DEFINE_ACCESSOR(flatbuffers, flatbuffers, wb::flatbuf::Accessor)
