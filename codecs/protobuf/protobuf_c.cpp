// protobuf-c 1.4 (protoc-c's generated C): the encoder points reused C
// structs at the records' strings and packs them; the decoder unpacks into
// a tree protobuf-c allocates, copies it into records and frees it.
// protobuf-c checks no UTF-8, and its strings are C strings: a string with
// a NUL byte comes back cut at it.
#include <cstdint>
#include <memory>
#include <tuple>

#include "airport.pb-c.h"
#include "codecs/protobuf/feed_type.hpp"
#include "codecs/protobuf/ticks.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "message.pb-c.h"
#include "science.pb-c.h"

namespace wb::protobuf_c {
namespace {

using protobuf::from_seconds;
constexpr std::string_view kLibrary = token::decoder_protobuf_protobuf_c;

char* c_str(const std::string& s) {
  return const_cast<char*>(s.c_str());  // protobuf-c only reads it
}

template <class T>
struct C;
template <>
struct C<Message> {
  using Row = Wirebench__Pb__Message;
  using Feed = Wirebench__Pb__MessageFeed;
  static inline const Row kRow = WIREBENCH__PB__MESSAGE__INIT;
  static inline const Feed kFeed = WIREBENCH__PB__MESSAGE_FEED__INIT;
  static auto rows(Feed& f) { return std::tie(f.n_messages, f.messages); }
};
template <>
struct C<Airport> {
  using Row = Wirebench__Pb__Airport;
  using Feed = Wirebench__Pb__AirportFeed;
  static inline const Row kRow = WIREBENCH__PB__AIRPORT__INIT;
  static inline const Feed kFeed = WIREBENCH__PB__AIRPORT_FEED__INIT;
  static auto rows(Feed& f) { return std::tie(f.n_airports, f.airports); }
};
template <>
struct C<ScienceRow> {
  using Row = Wirebench__Pb__ScienceRow;
  using Feed = Wirebench__Pb__ScienceFeed;
  static inline const Row kRow = WIREBENCH__PB__SCIENCE_ROW__INIT;
  static inline const Feed kFeed = WIREBENCH__PB__SCIENCE_FEED__INIT;
  static auto rows(Feed& f) { return std::tie(f.n_science, f.science); }
};

// The nested structs of one encode, kept for the next.
struct Scratch {
  std::vector<Wirebench__Pb__Contact> contacts;
  std::vector<Wirebench__Pb__Contact*> contact_ptrs;
  std::size_t next_contact = 0;
  std::vector<Google__Protobuf__Timestamp> timestamps;

  void prepare(const std::vector<Airport>& rows) {
    std::size_t total = 0;
    for (const Airport& a : rows) total += a.Contacts.size();
    contacts.assign(total, WIREBENCH__PB__CONTACT__INIT);
    contact_ptrs.resize(total);
    for (std::size_t i = 0; i < total; ++i) contact_ptrs[i] = &contacts[i];
    next_contact = 0;
  }
  void prepare(const std::vector<ScienceRow>& rows) {
    timestamps.assign(rows.size(), GOOGLE__PROTOBUF__TIMESTAMP__INIT);
  }
  void prepare(const std::vector<Message>&) {}
};

void fill(const Message& r, Wirebench__Pb__Message& m, Scratch&, std::size_t) {
  m.id = r.ID;
  m.messagetext = c_str(r.MessageText);
}
void fill(const Airport& r, Wirebench__Pb__Airport& m, Scratch& s, std::size_t) {
  m.n_contacts = r.Contacts.size();
  m.contacts = s.contact_ptrs.data() + s.next_contact;
  for (const Contact& c : r.Contacts) {
    Wirebench__Pb__Contact& pc = s.contacts[s.next_contact++];
    pc.firstname = c_str(c.FirstName);
    pc.lastname = c_str(c.LastName);
  }
  m.latitude = r.Latitude;
  m.longitude = r.Longitude;
  m.name = c_str(r.Name);
}
void fill(const ScienceRow& r, Wirebench__Pb__ScienceRow& m, Scratch& s, std::size_t i) {
  m.partitionkey = c_str(r.PartitionKey);
  m.rowkey = c_str(r.RowKey);
  const protobuf::Seconds t = protobuf::to_seconds(r.Timestamp);
  s.timestamps[i].seconds = t.seconds;
  s.timestamps[i].nanos = t.nanos;
  m.timestamp = &s.timestamps[i];
  m.x = r.X;
  m.y = r.Y;
  m.temp = r.Temp;
  m.humidity = r.Humidity;
  m.pressure = r.Pressure;
  m.wind = r.Wind;
}

class Encoder : public EncoderFor<Encoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    using Row = typename C<T>::Row;
    auto& [structs, ptrs] = std::get<Rows<Row>>(rows_);
    structs.assign(rows.size(), C<T>::kRow);
    scratch_.prepare(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) fill(rows[i], structs[i], scratch_, i);
    ptrs.clear();
    for (Row& r : structs) ptrs.push_back(&r);
    typename C<T>::Feed feed = C<T>::kFeed;
    auto [n, list] = C<T>::rows(feed);
    n = ptrs.size();
    list = ptrs.data();
    out.resize(protobuf_c_message_get_packed_size(&feed.base));
    protobuf_c_message_pack(&feed.base, reinterpret_cast<uint8_t*>(out.data()));
  }

 private:
  template <class Row>
  using Rows = std::pair<std::vector<Row>, std::vector<Row*>>;
  std::tuple<Rows<Wirebench__Pb__Message>, Rows<Wirebench__Pb__Airport>,
             Rows<Wirebench__Pb__ScienceRow>>
      rows_;
  Scratch scratch_;
};

void read(const Wirebench__Pb__Message& m, Message& r) {
  r.ID = m.id;
  r.MessageText = m.messagetext;
}
void read(const Wirebench__Pb__Airport& m, Airport& r) {
  r.Contacts.reserve(m.n_contacts);
  for (std::size_t i = 0; i < m.n_contacts; ++i)
    r.Contacts.push_back({m.contacts[i]->firstname, m.contacts[i]->lastname});
  r.Latitude = m.latitude;
  r.Longitude = m.longitude;
  r.Name = m.name;
}
void read(const Wirebench__Pb__ScienceRow& m, ScienceRow& r) {
  r.PartitionKey = m.partitionkey;
  r.RowKey = m.rowkey;
  r.Timestamp =
      m.timestamp ? from_seconds(kLibrary, m.timestamp->seconds, m.timestamp->nanos) : DateTime{};
  r.X = m.x;
  r.Y = m.y;
  r.Temp = m.temp;
  r.Humidity = m.humidity;
  r.Pressure = m.pressure;
  r.Wind = m.wind;
}

struct FreeUnpacked {
  template <class Feed>
  void operator()(Feed* m) const {
    protobuf_c_message_free_unpacked(&m->base, nullptr);
  }
};

// The feed of T unpacked from input (protobuf-c's own allocations, freed by
// the pointer); throws DecodeError.
template <class T>
auto unpack(std::string_view input) {
  using Feed = typename C<T>::Feed;
  ProtobufCMessage* m =
      protobuf_c_message_unpack(C<T>::kFeed.base.descriptor, nullptr, input.size(),
                                reinterpret_cast<const uint8_t*>(input.data()));
  if (!m)
    throw DecodeError(kLibrary, std::string("not a valid ") + C<T>::kFeed.base.descriptor->name +
                                    " (protobuf_c_message_unpack refused it)");
  return std::unique_ptr<Feed, FreeUnpacked>(reinterpret_cast<Feed*>(m));
}

class Decoder : public DecoderFor<Decoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& out) {
    auto feed = unpack<T>(input);
    auto [n, list] = C<T>::rows(*feed);
    // Rows of another dataset sit under another field number: unknown here.
    if (n == 0 && feed->base.n_unknown_fields > 0)
      throw DecodeError(kLibrary, std::string("no ") + feed->base.descriptor->name +
                                      " rows, only unknown fields (a payload of another "
                                      "dataset?)");
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) read(*list[i], out.emplace_back());
  }
  std::size_t parse_only(std::string_view input) override {
    return protobuf::with_feed_type(input, [&]<class T>() {
      auto feed = unpack<T>(input);
      return std::get<0>(C<T>::rows(*feed)) + 1;
    });
  }
};

}  // namespace
}  // namespace wb::protobuf_c

WB_DEFINE_ENCODER(protobuf, protobuf_c, wb::protobuf_c::Encoder)
WB_DEFINE_DECODER(protobuf, protobuf_c, wb::protobuf_c::Decoder)
