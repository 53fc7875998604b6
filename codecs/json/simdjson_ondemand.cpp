// simdjson On-Demand: a forward-only walk that binds each member as it is
// reached. Members we do not bind are never read: On-Demand skips them, so
// their contents are only checked structurally (brackets, strings, UTF-8).
#include <algorithm>

#include <simdjson.h>

#include "codecs/json/feed.hpp"
#include "codecs/json/ondemand_input.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

namespace od = simdjson::ondemand;
constexpr std::string_view kLibrary = "simdjson-ondemand";

// Indexed by od::json_type, which starts at array = 1.
constexpr std::string_view kTypeNames[] = {"?",        "an array",  "an object", "a number",
                                           "a string", "a boolean", "null"};

class SimdjsonOndemandDecoder : public DecoderFor<SimdjsonOndemandDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    od::object root;
    expect(in_.start(input).get_object().get(root), "the payload is not a JSON object");
    bool found = false;
    for (auto member : root) {
      od::field field;
      if (key_of(member, field) != "value") {
        walk(field.value(), 1);
        continue;
      }
      if (found) throw DecodeError(kFormat, "a second 'value' member");
      found = true;
      od::array array;
      expect(field.value().get_array().get(array), "'value' is not an array");
      for (auto element : array) {
        if constexpr (std::is_same_v<T, EntityRow>)
          bind_entity(value_of(element), rows.emplace_back());
        else
          bind_record(value_of(element), &rows.emplace_back(), table_of<T>());
      }
    }
    if (!found) throw DecodeError(kFormat, "no 'value' array: not an OData feed");
    in_.check_end();
  }

  // The bare cost: every value is visited and converted (keys and strings
  // unescaped, numbers parsed), as a DOM parse would do, without binding.
  // Returns the number of values visited.
  std::size_t parse_only(std::string_view input) final {
    const std::size_t values = visit_root(in_.start(input));
    in_.check_end();
    return values;
  }

 private:
  void bind_record(od::value v, void* record, const RecordTable& t) {
    od::object object;
    expect<RowError>(v.get_object().get(object), "a row is not a JSON object");
    std::size_t hint = 0;
    int bound = 0;
    for (auto member : object) {
      od::field field;
      const FieldSlot* s = t.find(key_of(member, field), hint);
      if (s)
        store(*s, record, field.value()), ++bound;
      else
        walk(field.value(), 3);
    }
    require_members(kFormat, t, bound);
  }

  // Entity rows: every member but annotations is a property, read in order
  // (On-Demand cannot go back), so type annotations are applied at the end.
  void bind_entity(od::value v, EntityRow& row) {
    od::object object;
    expect<RowError>(v.get_object().get(object), "a row is not a JSON object");
    annotations_.clear();
    for (auto member : object) {
      od::field field;
      const std::string_view key = key_of(member, field);
      if (const std::string_view name = entity::type_annotation_target(key); !name.empty()) {
        std::string_view type;
        if (field.value().get_string().get(type))
          throw DecodeError(kFormat,
                            "the type annotation of " + std::string(name) + " is not a string");
        annotations_.push_back({std::string(name), std::string(type)});
        continue;
      }
      if (entity::is_annotation(key)) {
        walk(field.value(), 3);
        continue;
      }
      EntityProperty& p = row.Properties.emplace_back();
      p.Name.assign(key);
      od::json_type type;
      check(field.value().type().get(type));
      if (type == od::json_type::object || type == od::json_type::array) {
        p.Type = type == od::json_type::object ? entity::kComplex : entity::kCollection;
        entity::JsonText out(p.Value);
        render(field.value(), out, 0);
      } else {
        scalar(field.value(), p);
      }
    }
    entity::finish_json_row(kFormat, row, annotations_);
  }

  // A nested entity property value as JSON text.
  void render(od::value v, entity::JsonText& out, std::size_t depth) {
    if (depth >= in_.max_depth()) check(simdjson::DEPTH_ERROR);
    od::json_type type;
    check(v.type().get(type));
    if (type == od::json_type::array) {
      od::array array;
      check(v.get_array().get(array));
      out.start_array();
      for (auto element : array) render(value_of(element), out, depth + 1);
      return out.end_array();
    }
    if (type == od::json_type::object) {
      od::object object;
      check(v.get_object().get(object));
      out.start_object();
      for (auto member : object) {
        od::field field;
        out.key(key_of(member, field));
        render(field.value(), out, depth + 1);
      }
      return out.end_object();
    }
    EntityProperty p;
    scalar(v, p);
    out.property(p);
  }

  void scalar(od::value v, EntityProperty& p) {
    od::json_type type;
    check(v.type().get(type));
    switch (type) {
      case od::json_type::string: {
        std::string_view text;
        check(v.get_string().get(text));
        return entity::set_string(p, text);
      }
      case od::json_type::number: {
        // Classified without being consumed, then read by the one getter of
        // its type: simdjson 3.0.1's get_number() gives 0 for a float of more
        // than 19 digits (999999999999999999999999999999999999999.9), which
        // get_double() reads right.
        // An integer beyond 64 bits fails its integer getter (which then
        // leaves the value unread): it is read as a double, as by the typed
        // members and by the other libraries' entity rows.
        od::number_type kind{};
        check(v.get_number_type().get(kind));
        switch (kind) {
          case od::number_type::signed_integer: {
            int64_t i = 0;
            if (!v.get_int64().get(i)) return entity::set_integer(p, i);
            break;
          }
          case od::number_type::unsigned_integer: {
            uint64_t u = 0;
            if (!v.get_uint64().get(u)) return entity::set_unsigned(p, u);
            break;
          }
          case od::number_type::floating_point_number:
            break;
        }
        double d = 0;
        check(read_double(v, d));
        return entity::set_number(p, d);
      }
      case od::json_type::boolean: {
        bool b = false;
        check(v.get_bool().get(b));
        return entity::set_boolean(p, b);
      }
      case od::json_type::null:
        check(v.is_null().error());
        return entity::set_null(p);
      default:
        break;
    }
    throw DecodeError(kFormat, "an entity property value that is not a scalar");
  }

  void store(const FieldSlot& s, void* record, od::value& v) {
    switch (s.kind) {
      case ValueKind::int32: {
        int64_t i;
        if (auto e = v.get_int64().get(i)) mismatch(s, v, e);
        return store_int(kFormat, s, record, i);
      }
      case ValueKind::float64: {
        double d;
        if (auto e = read_double(v, d)) mismatch(s, v, e);
        return store_double(kFormat, s, record, d);
      }
      case ValueKind::string:
      case ValueKind::datetime: {
        std::string_view text;
        if (auto e = v.get_string().get(text)) mismatch(s, v, e);
        return store_string(kFormat, s, record, text);
      }
      case ValueKind::records: {
        od::array array;
        if (auto e = v.get_array().get(array)) mismatch(s, v, e);
        void* items = static_cast<char*>(record) + s.offset;
        for (auto element : array) bind_record(value_of(element), s.append(items), *s.element);
        return;
      }
      case ValueKind::property:  // entity rows have their own walk (bind_entity)
        break;
    }
    throw DecodeError(kFormat, "member " + std::string(s.name) + ": not bindable here");
  }

  // get_double(), but exact: simdjson 3.0.1's On-Demand misreads a number
  // of more than 19 digits after a zero integer part, 0.800000000000000000000
  // as 0.00679 (simdjson issue #2093, fixed in 3.6.3). Up to 19 digits its
  // answer stands; a longer token, which it has validated, is read again with
  // from_chars. Inlined, as get_double() is: out of line it makes
  // json/science/8100 decode 23 % slower for only 3.8 % more instructions
  // (the value's iterator goes through memory).
  [[gnu::always_inline]] static simdjson::error_code read_double(od::value& v, double& d) {
    const std::string_view token = v.raw_json_token();  // before get_double() moves on
    if (auto e = v.get_double().get(d)) return e;
    // 19 characters (white space after it included) hold at most 19 digits.
    return token.size() <= 19 ? simdjson::SUCCESS : reread_long(token, d);
  }
  [[gnu::noinline]] static simdjson::error_code reread_long(std::string_view raw, double& d) {
    const std::string_view token = OndemandInput::token_text(raw);
    const std::string_view mantissa = token.substr(0, token.find_first_of("eE"));
    if (std::count_if(mantissa.begin(), mantissa.end(),
                      [](char c) { return c >= '0' && c <= '9'; }) <= 19)
      return simdjson::SUCCESS;
    const auto exact = text::parse_double(token);
    if (!exact) return simdjson::NUMBER_ERROR;
    d = *exact;
    return simdjson::SUCCESS;
  }

  // visit() with its errors as DecodeErrors: parse_only()'s walk, and decode's
  // for a value it does not bind. On-Demand passes over a value it is not
  // asked for without validating it: a bad escape or stray bytes before it
  // would go through, so decode would accept what parse_only() rejects (the
  // fuzz targets check that it never does; the other decoders refuse).
  std::size_t walk(od::value v, std::size_t depth) {
    try {
      return visit(v, depth, in_.max_depth());
    } catch (const simdjson::simdjson_error& e) {
      check(e.error());
    }
    return 0;  // check() threw
  }

  // The root: a container goes through the value walk; a scalar root is read
  // on the document itself (On-Demand gives no value for a scalar document).
  std::size_t visit_root(od::document& root) {
    od::json_type type;
    check(root.type().get(type));
    if (type != od::json_type::array && type != od::json_type::object) {
      visit_scalar(root, type);
      return 1;
    }
    od::value v;
    check(root.get_value().get(v));
    return walk(v, 0);
  }

  // A static walk on simdjson's exception API, as simdjson's docs write it
  // (errors become simdjson_error; visit_root turns them into a DecodeError
  // with the offset). As a member with an error-code check after every step,
  // the same walk runs 1.7-2x slower than the library's minimal loop for only
  // 7 % more instructions (callgrind).
  // Returns how many values it visited (v and everything in it).
  static std::size_t visit(od::value v, std::size_t depth, std::size_t max_depth) {
    // On-Demand itself does not bound nesting; this recursion must.
    if (depth >= max_depth) throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
    std::size_t values = 1;
    switch (od::json_type(v.type())) {
      case od::json_type::array:
        for (auto element : v.get_array())
          values += visit(std::move(element), depth + 1, max_depth);
        return values;
      case od::json_type::object:
        for (auto member : v.get_object()) {
          od::field field(std::move(member));
          (void)std::string_view(field.unescaped_key());
          values += visit(field.value(), depth + 1, max_depth);
        }
        return values;
      case od::json_type::number: {
        // As decode reads a double member: a number get_number() refuses
        // (an integer beyond 64 bits) but get_double() reads is a number.
        od::number n;
        if (v.get_number().get(n)) (void)double(v.get_double());
        return values;
      }
      case od::json_type::string:
        (void)std::string_view(v.get_string());
        return values;
      case od::json_type::boolean:
        (void)bool(v.get_bool());
        return values;
      case od::json_type::null:
        if (!v.is_null()) throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
        return values;
    }
    return values;
  }

  template <class V>
  void visit_scalar(V& v, od::json_type type) {
    switch (type) {
      case od::json_type::number:
        return check(v.get_number().error());
      case od::json_type::string:
        return check(v.get_string().error());
      case od::json_type::boolean:
        return check(v.get_bool().error());
      case od::json_type::null:
        return check(v.is_null().error());
      default:
        return;
    }
  }

  std::string_view key_of(simdjson::simdjson_result<od::field> member, od::field& field) {
    check(std::move(member).get(field));
    std::string_view key;
    check(field.unescaped_key().get(key));
    return key;
  }
  od::value value_of(simdjson::simdjson_result<od::value> element) {
    od::value v;
    check(std::move(element).get(v));
    return v;
  }

  // On-Demand reads lazily: trailing content is only found by asking. 3.0.1
  // has no document::at_end(); current_location() is out of bounds exactly
  // when the iterator is at the end.
  // A wrong JSON type where the feed shape needs another is the feed's error,
  // at the value; Error is RowError inside a row (codec.hpp).
  template <class Error = DecodeError>
  void expect(simdjson::error_code e, const char* shape_error) {
    if (e == simdjson::INCORRECT_TYPE) throw Error(kFormat, shape_error, in_.offset());
    check(e);
  }
  [[noreturn]] void mismatch(const FieldSlot& s, od::value& v, simdjson::error_code e) {
    od::json_type type;
    if (e == simdjson::INCORRECT_TYPE && !v.type().get(type)) {
      double d;  // for an Int32: a fraction, or an integer beyond its range
      if (type == od::json_type::number && !v.get_double().get(d))
        wrong_type(kFormat, s, number_kind(d));
      wrong_type(kFormat, s, kTypeNames[static_cast<int>(type)]);
    }
    throw DecodeError(kLibrary, simdjson::error_message(e), in_.offset());
  }
  void check(simdjson::error_code e) { in_.check(e); }

  OndemandInput in_{kLibrary};
  std::vector<entity::TypeAnnotation> annotations_;  // reused across rows
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_DECODER(json, simdjson_ondemand, wb::json::SimdjsonOndemandDecoder)
