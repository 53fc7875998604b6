// simdjson On-Demand: a forward-only walk that binds each member as it is
// reached. Members we do not bind are never read: On-Demand skips them, so
// their contents are only checked structurally (brackets, strings, UTF-8).
#include <algorithm>

#include <simdjson.h>

#include "codecs/json/adapters/simdjson_ondemand_input.hpp"
#include "codecs/json/adapters/simdjson_ondemand_walk.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

namespace od = simdjson::ondemand;
constexpr std::string_view kLibrary = token::decoder_json_simdjson_ondemand;

// Indexed by od::json_type, which starts at array = 1.
constexpr std::string_view kTypeNames[] = {"?",        "an array",  "an object", "a number",
                                           "a string", "a boolean", "null"};

class SimdjsonOndemandDecoder : public DecoderFor<SimdjsonOndemandDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    using Member = FeedReader::Member;
    od::object root;
    expect(in_.start(input).get_object().get(root), "the payload is not a JSON object");
    FeedReader feed(page_out());
    for (auto member : root) {
      od::field field;
      switch (const Member m = feed.root_member(key_of(member, field))) {
        case Member::rows:
          bind_rows(field.value(), m, feed, rows);
          break;
        case Member::verbose:
          bind_verbose(field.value(), feed, rows);
          break;
        case Member::next_link:
        case Member::count:
          envelope_scalar(field.value(), m, feed);
          break;
        case Member::other:
          walk(field.value(), 1);
          break;
      }
    }
    feed.finish();
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
  bool canonical(std::string_view input, std::string& out) final {
    return write_ondemand_canonical(in_, input, out);
  }

 private:
  // v2's "d": v1's array of rows, or an object around them.
  template <class T>
  void bind_verbose(od::value v, FeedReader& feed, std::vector<T>& rows) {
    using Member = FeedReader::Member;
    od::json_type type;
    check(v.type().get(type));
    if (type != od::json_type::object) return bind_rows(v, Member::verbose, feed, rows);
    od::object d;
    check(v.get_object().get(d));
    for (auto member : d) {
      od::field field;
      switch (const Member m = feed.verbose_member(key_of(member, field))) {
        case Member::rows:
          bind_rows(field.value(), m, feed, rows);
          break;
        case Member::next_link:
        case Member::count:
          envelope_scalar(field.value(), m, feed);
          break;
        default:
          walk(field.value(), 2);
          break;
      }
    }
  }

  template <class T>
  void bind_rows(od::value v, FeedReader::Member m, FeedReader& feed, std::vector<T>& rows) {
    od::array array;
    if (const auto e = v.get_array().get(array)) {
      if (e == simdjson::INCORRECT_TYPE) feed.wrong_shape(m);
      check(e);
    }
    const Dialect dialect = feed.start_rows(m);
    const RecordTable& table = dialect_table<T>(dialect);
    for (auto element : array) {
      if constexpr (std::is_same_v<T, EntityRow>)
        bind_entity(value_of(element), rows.emplace_back(), dialect);
      else
        bind_record(value_of(element), &rows.emplace_back(), table);
    }
  }

  void envelope_scalar(od::value v, FeedReader::Member m, FeedReader& feed) {
    od::json_type type;
    check(v.type().get(type));
    if (type == od::json_type::object || type == od::json_type::array) feed.wrong_shape(m);
    EntityProperty value;
    scalar(v, value);
    feed.scalar(m, value);
  }

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
  void bind_entity(od::value v, EntityRow& row, Dialect dialect) {
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
    entity::finish_json_row(kFormat, row, annotations_, dialect == Dialect::verbose);
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
        if (auto e = v.get_int64().get(i)) return number_text(s, record, v, e);
        return store_int(kFormat, s, record, i);
      }
      case ValueKind::float64: {
        double d;
        if (auto e = read_double(v, d)) return number_text(s, record, v, e);
        return store_double(kFormat, s, record, d);
      }
      case ValueKind::string:
      case ValueKind::datetime: {
        std::string_view text;
        if (auto e = v.get_string().get(text)) mismatch(s, v, e);
        return store_string(kFormat, s, record, text);
      }
      case ValueKind::records: {
        void* items = static_cast<char*>(record) + s.offset;
        od::array array;
        if (auto e = v.get_array().get(array)) return results_object(s, items, v, e);
        for (auto element : array) bind_record(value_of(element), s.append(items), *s.element);
        return;
      }
      case ValueKind::property:  // entity rows have their own walk (bind_entity)
        break;
    }
    throw DecodeError(kFormat, "member " + std::string(s.name) + ": not bindable here");
  }

  // A number the getter refused: the text of one, where the dialect lets
  // numbers come as strings (FieldSlot::number_as_text).
  void number_text(const FieldSlot& s, void* record, od::value& v, simdjson::error_code e) {
    std::string_view text;
    if (e != simdjson::INCORRECT_TYPE || !s.number_as_text || v.get_string().get(text))
      mismatch(s, v, e);
    store_string(kFormat, s, record, text);
  }

  // A list the array getter refused: v2's {"results": [...]}, where the
  // dialect has it (FieldSlot::results_object).
  void results_object(const FieldSlot& s, void* items, od::value& v, simdjson::error_code e) {
    od::object object;
    if (e != simdjson::INCORRECT_TYPE || !s.results_object || v.get_object().get(object))
      mismatch(s, v, e);
    bool found = false;
    for (auto member : object) {
      od::field field;
      if (key_of(member, field) != "results") {
        walk(field.value(), 4);
        continue;
      }
      if (found) member_error(kFormat, s, ": a second 'results'");
      found = true;
      od::array array;
      if (auto f = field.value().get_array().get(array)) {
        if (f == simdjson::INCORRECT_TYPE) member_error(kFormat, s, ": 'results' is not an array");
        check(f);
      }
      for (auto element : array) bind_record(value_of(element), s.append(items), *s.element);
    }
    if (!found) member_error(kFormat, s, ": an object without 'results'");
  }

  // ondemand_visit() with its errors as DecodeErrors: parse_only()'s walk, and decode's
  // for a value it does not bind. On-Demand passes over a value it is not
  // asked for without validating it: a bad escape or stray bytes before it
  // would go through, so decode would accept what parse_only() rejects (the
  // fuzz targets check that it never does; the other decoders refuse).
  std::size_t walk(od::value v, std::size_t depth) {
    try {
      return ondemand_visit(v, depth, in_.max_depth());
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

WB_DEFINE_JSON_DECODER(simdjson_ondemand, wb::json::SimdjsonOndemandDecoder)
