// A feed's entity rows in protobuf with no generated code: a DescriptorProto
// made at run time from the schema (entity_schema.hpp), built into a
// DescriptorPool, and DynamicMessage filled and read through reflection:
//
//   syntax = "proto2"; message Row { optional <kind> <column> = i + 1; ... }
//   message Feed { repeated Row value = 1; }
//
// proto2's optional fields keep presence, so a null is a field not set and
// an empty string stays a string. Kinds: string, int32, int64 (Edm.DateTime
// as int64 ticks), double, bool.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>

#include <climits>
#include <memory>

#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

namespace pb = google::protobuf;
constexpr std::string_view kLibrary = "libprotobuf-dynamic";

pb::FieldDescriptorProto::Type type_of(Kind kind) {
  switch (kind) {
    case Kind::string:
      return pb::FieldDescriptorProto::TYPE_STRING;
    case Kind::int32:
      return pb::FieldDescriptorProto::TYPE_INT32;
    case Kind::int64:
    case Kind::ticks:
      return pb::FieldDescriptorProto::TYPE_INT64;
    case Kind::float64:
      return pb::FieldDescriptorProto::TYPE_DOUBLE;
    case Kind::boolean:
      return pb::FieldDescriptorProto::TYPE_BOOL;
  }
  return pb::FieldDescriptorProto::TYPE_STRING;
}

// The pool, the factory and the feed's prototype, made once per codec.
class Schema {
 public:
  explicit Schema(const EntitySchema& schema) : columns_(schema.columns) {
    pb::FileDescriptorProto file;
    file.set_name("feed.proto");
    file.set_package("wirebench.feed");
    file.set_syntax("proto2");
    pb::DescriptorProto* row = file.add_message_type();
    row->set_name("Row");
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      pb::FieldDescriptorProto* f = row->add_field();
      // Property names need not be identifiers: fields are found by number.
      f->set_name("f" + std::to_string(i + 1));
      f->set_json_name(columns_[i].name);
      f->set_number(static_cast<int>(i + 1));
      f->set_label(pb::FieldDescriptorProto::LABEL_OPTIONAL);
      f->set_type(type_of(columns_[i].kind));
    }
    pb::DescriptorProto* feed = file.add_message_type();
    feed->set_name("Feed");
    pb::FieldDescriptorProto* value = feed->add_field();
    value->set_name("value");
    value->set_number(1);
    value->set_label(pb::FieldDescriptorProto::LABEL_REPEATED);
    value->set_type(pb::FieldDescriptorProto::TYPE_MESSAGE);
    value->set_type_name(".wirebench.feed.Row");
    const pb::FileDescriptor* built = pool_.BuildFile(file);
    if (!built) throw std::invalid_argument(std::string(kLibrary) + ": the schema does not build");
    feed_ = built->FindMessageTypeByName("Feed");
    row_ = built->FindMessageTypeByName("Row");
    value_ = feed_->FindFieldByNumber(1);
    for (std::size_t i = 0; i < columns_.size(); ++i)
      fields_.push_back(row_->FindFieldByNumber(static_cast<int>(i + 1)));
    message_.reset(factory_.GetPrototype(feed_)->New());
  }

  pb::Message& message() { return *message_; }
  const pb::FieldDescriptor* value() const { return value_; }
  const std::vector<const pb::FieldDescriptor*>& fields() const { return fields_; }
  const std::vector<Column>& columns() const { return columns_; }

 private:
  std::vector<Column> columns_;
  pb::DescriptorPool pool_;
  pb::DynamicMessageFactory factory_{&pool_};
  const pb::Descriptor* feed_ = nullptr;
  const pb::Descriptor* row_ = nullptr;
  const pb::FieldDescriptor* value_ = nullptr;
  std::vector<const pb::FieldDescriptor*> fields_;
  std::unique_ptr<pb::Message> message_;  // reused across calls, as a server does
};

class DynamicEncoder : public Encoder {
 public:
  explicit DynamicEncoder(const EntitySchema& schema) : s_(schema) {}
  void encode(const Records& records, std::string& out) override {
    pb::Message& feed = s_.message();
    feed.Clear();
    const pb::Reflection* fr = feed.GetReflection();
    for (const EntityRow& row : std::get<std::vector<EntityRow>>(records)) {
      pb::Message* m = fr->AddMessage(&feed, s_.value());
      const pb::Reflection* r = m->GetReflection();
      for (std::size_t i = 0; i < s_.fields().size(); ++i) {
        const EntityProperty& p = row.Properties[i];
        if (is_null(p)) continue;
        const pb::FieldDescriptor* f = s_.fields()[i];
        switch (s_.columns()[i].kind) {
          case Kind::string:
            r->SetString(m, f, p.Value);
            break;
          case Kind::int32:
            r->SetInt32(m, f, static_cast<int32_t>(to_int(p)));
            break;
          case Kind::int64:
            r->SetInt64(m, f, to_int(p));
            break;
          case Kind::ticks:
            r->SetInt64(m, f, to_ticks(p));
            break;
          case Kind::float64:
            r->SetDouble(m, f, to_double(p));
            break;
          case Kind::boolean:
            r->SetBool(m, f, p.Value == "true");
            break;
        }
      }
    }
    out.clear();
    feed.AppendToString(&out);
  }

 private:
  Schema s_;
};

class DynamicDecoder : public Decoder {
 public:
  explicit DynamicDecoder(const EntitySchema& schema) : s_(schema) {}
  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(kLibrary, "decodes entity rows only");
    rows->clear();
    const pb::Message& feed = parse(input);
    const pb::Reflection* fr = feed.GetReflection();
    const int n = fr->FieldSize(feed, s_.value());
    rows->reserve(static_cast<std::size_t>(n));
    std::string scratch;
    for (int k = 0; k < n; ++k) {
      const pb::Message& m = fr->GetRepeatedMessage(feed, s_.value(), k);
      const pb::Reflection* r = m.GetReflection();
      EntityRow& row = rows->emplace_back();
      row.Properties.reserve(s_.fields().size());
      for (std::size_t i = 0; i < s_.fields().size(); ++i) {
        const pb::FieldDescriptor* f = s_.fields()[i];
        const Column& c = s_.columns()[i];
        if (!r->HasField(m, f)) {
          put_null(row, c);
          continue;
        }
        switch (c.kind) {
          case Kind::string:
            put_string(row, c, r->GetStringReference(m, f, &scratch));
            break;
          case Kind::int32:
            put_int(row, c, r->GetInt32(m, f));
            break;
          case Kind::int64:
            put_int(row, c, r->GetInt64(m, f));
            break;
          case Kind::ticks:
            put_ticks(row, c, r->GetInt64(m, f));
            break;
          case Kind::float64:
            put_double(row, c, r->GetDouble(m, f));
            break;
          case Kind::boolean:
            put_bool(row, c, r->GetBool(m, f));
            break;
        }
      }
    }
  }
  std::size_t parse_only(std::string_view input) override {
    const pb::Message& feed = parse(input);
    return static_cast<std::size_t>(feed.GetReflection()->FieldSize(feed, s_.value())) + 1;
  }

 private:
  const pb::Message& parse(std::string_view input) {
    if (input.size() > INT_MAX) throw DecodeError(kLibrary, "payload over 2 GiB");
    pb::Message& feed = s_.message();
    if (!feed.ParseFromArray(input.data(), static_cast<int>(input.size())))
      throw DecodeError(kLibrary, "not a valid " + feed.GetTypeName() +
                                      " of the feed's schema (malformed or truncated)");
    return feed;
  }
  Schema s_;
};

}  // namespace

void add_libprotobuf_dynamic(std::vector<Carrier>& out) {
  CarrierCodec codec{kLibrary, true,
                     [](const EntitySchema& s) { return std::make_unique<DynamicEncoder>(s); },
                     [](const EntitySchema& s) { return std::make_unique<DynamicDecoder>(s); }};
  out.push_back({"protobuf", {codec}, {codec}, [](const Records& rows) {
                   return why_not("protobuf", rows);
                 }});
}

}  // namespace wb::carry
