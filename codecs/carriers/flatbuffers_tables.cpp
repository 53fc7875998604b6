// A feed's entity rows in FlatBuffers with no generated code: tables laid
// out from the feed's schema (entity_schema.hpp) at run time, as flatc's
// code would lay out
//
//   table Row { c1: <kind>; c2: ...; }   table Feed { value: [Row]; }   root_type Feed;
//
// field i at vtable slot 4 + 2 i, written with FlatBufferBuilder's own calls
// (ForceDefaults, so that a present zero is written and an absent field is
// a null), read with flatbuffers::Table after the Verifier has walked every
// table, field and string, as the flatbuffers decoder does. Kinds: string,
// int32, int64 (Edm.DateTime as int64 ticks), double, bool.
#include <flatbuffers/flatbuffers.h>

#include <memory>

#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

namespace fb = flatbuffers;
constexpr std::string_view kLibrary = "flatbuffers-tables";
constexpr fb::voffset_t kValue = 4;  // Feed.value

constexpr fb::voffset_t slot(std::size_t i) {
  return static_cast<fb::voffset_t>(4 + 2 * i);
}

using Rows = fb::Vector<fb::Offset<fb::Table>>;

class TableEncoder : public Encoder {
 public:
  explicit TableEncoder(const EntitySchema& schema) : columns_(schema.columns) {
    builder_.ForceDefaults(true);
  }
  void encode(const Records& records, std::string& out) override {
    const auto& rows = std::get<std::vector<EntityRow>>(records);
    builder_.Clear();
    offsets_.clear();
    strings_.resize(columns_.size());
    for (const EntityRow& row : rows) {
      // Strings before the table that points at them.
      for (std::size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i].kind == Kind::string && !is_null(row.Properties[i]))
          strings_[i] = builder_.CreateString(row.Properties[i].Value);
      const fb::uoffset_t start = builder_.StartTable();
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const EntityProperty& p = row.Properties[i];
        if (is_null(p)) continue;
        switch (columns_[i].kind) {
          case Kind::string:
            builder_.AddOffset(slot(i), strings_[i]);
            break;
          case Kind::int32:
            builder_.AddElement<int32_t>(slot(i), static_cast<int32_t>(to_int(p)), 0);
            break;
          case Kind::int64:
            builder_.AddElement<int64_t>(slot(i), to_int(p), 0);
            break;
          case Kind::ticks:
            builder_.AddElement<int64_t>(slot(i), to_ticks(p), 0);
            break;
          case Kind::float64:
            builder_.AddElement<double>(slot(i), to_double(p), 0);
            break;
          case Kind::boolean:
            builder_.AddElement<uint8_t>(slot(i), p.Value == "true", 0);
            break;
        }
      }
      offsets_.push_back(fb::Offset<fb::Table>(builder_.EndTable(start)));
    }
    const auto value = builder_.CreateVector(offsets_);
    const fb::uoffset_t feed = builder_.StartTable();
    builder_.AddOffset(kValue, value);
    builder_.Finish(fb::Offset<fb::Table>(builder_.EndTable(feed)));
    out.assign(reinterpret_cast<const char*>(builder_.GetBufferPointer()), builder_.GetSize());
  }

 private:
  std::vector<Column> columns_;
  fb::FlatBufferBuilder builder_;  // reused, as a server reuses it
  std::vector<fb::Offset<fb::Table>> offsets_;
  std::vector<fb::Offset<fb::String>> strings_;
};

class TableDecoder : public Decoder {
 public:
  explicit TableDecoder(const EntitySchema& schema) : columns_(schema.columns) {}
  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(kLibrary, "decodes entity rows only");
    rows->clear();
    const Rows* value = verified(input);
    if (!value) return;
    rows->reserve(value->size());
    for (const fb::Table* t : *value) {
      EntityRow& row = rows->emplace_back();
      row.Properties.reserve(columns_.size());
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const Column& c = columns_[i];
        const fb::voffset_t f = slot(i);
        if (!t->CheckField(f)) {
          put_null(row, c);
          continue;
        }
        switch (c.kind) {
          case Kind::string: {
            const auto* s = t->GetPointer<const fb::String*>(f);
            put_string(row, c, std::string_view(s->c_str(), s->size()));
            break;
          }
          case Kind::int32:
            put_int(row, c, t->GetField<int32_t>(f, 0));
            break;
          case Kind::int64:
            put_int(row, c, t->GetField<int64_t>(f, 0));
            break;
          case Kind::ticks:
            put_ticks(row, c, t->GetField<int64_t>(f, 0));
            break;
          case Kind::float64:
            put_double(row, c, t->GetField<double>(f, 0));
            break;
          case Kind::boolean:
            put_bool(row, c, t->GetField<uint8_t>(f, 0) != 0);
            break;
        }
      }
    }
  }
  std::size_t parse_only(std::string_view input) override {
    const Rows* value = verified(input);
    return (value ? value->size() : 0) + 1;
  }

 private:
  // The feed's rows once the Verifier has walked the whole buffer.
  const Rows* verified(std::string_view input) const {
    const auto* bytes = reinterpret_cast<const uint8_t*>(input.data());
    fb::Verifier v(bytes, input.size());
    // The root offset, in the buffer (what VerifyBuffer checks before the
    // generated root table's own Verify).
    bool ok = v.VerifyOffset(0) != 0;
    const fb::Table* feed = ok ? fb::GetRoot<fb::Table>(bytes) : nullptr;
    ok = ok && feed->VerifyTableStart(v) && feed->VerifyOffset(v, kValue);
    const Rows* value = ok ? feed->GetPointer<const Rows*>(kValue) : nullptr;
    ok = ok && v.VerifyVector(value);
    for (fb::uoffset_t k = 0; ok && value && k < value->size(); ++k)
      ok = verify_row(v, value->Get(k));
    ok = ok && v.EndTable();
    if (!ok)
      throw DecodeError(kLibrary, "the Verifier refused the buffer (not a feed of this schema)");
    return value;
  }
  bool verify_row(fb::Verifier& v, const fb::Table* t) const {
    if (!t->VerifyTableStart(v)) return false;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      const fb::voffset_t f = slot(i);
      bool ok = true;
      switch (columns_[i].kind) {
        case Kind::string:
          ok = t->VerifyOffset(v, f) && v.VerifyString(t->GetPointer<const fb::String*>(f));
          break;
        case Kind::int32:
          ok = t->VerifyField<int32_t>(v, f, 4);
          break;
        case Kind::int64:
        case Kind::ticks:
          ok = t->VerifyField<int64_t>(v, f, 8);
          break;
        case Kind::float64:
          ok = t->VerifyField<double>(v, f, 8);
          break;
        case Kind::boolean:
          ok = t->VerifyField<uint8_t>(v, f, 1);
          break;
      }
      if (!ok) return false;
    }
    return v.EndTable();
  }
  std::vector<Column> columns_;
};

}  // namespace

void add_flatbuffers_tables(std::vector<Carrier>& out) {
  CarrierCodec codec{kLibrary, true,
                     [](const EntitySchema& s) { return std::make_unique<TableEncoder>(s); },
                     [](const EntitySchema& s) { return std::make_unique<TableDecoder>(s); }};
  out.push_back({"flatbuffers", {codec}, {codec}, [](const Records& rows) {
                   return why_not("flatbuffers", rows);
                 }});
}

}  // namespace wb::carry
