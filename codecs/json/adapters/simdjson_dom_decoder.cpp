// simdjson DOM (dom::parser::parse): the parser and its document buffers are
// reused; inputs are parsed in place thanks to the padding every input has.
#include <simdjson.h>

#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

// simdjson-ondemand's factory (simdjson_ondemand.cpp), for error_offset below.
std::unique_ptr<wb::Decoder> wb_make_decoder_json_simdjson_ondemand();

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_simdjson_dom;

// The DOM API tells no error position: its stage 2 records where it stands
// only once the document ends. simdjson's On-Demand iterator does stand where
// a walk stops, so on the error path the input goes through simdjson-ondemand's
// parse_only walk and its offset is given. The two may word the error apart
// (On-Demand: "trailing content" where the DOM says "improper structure")
// but stop at the same place. -1 for the errors of the whole-input stage 1
// (invalid UTF-8, an unclosed string), which have no position in either.
long long error_offset(std::string_view input) {
  try {
    wb_make_decoder_json_simdjson_ondemand()->parse_only(input);
  } catch (const DecodeError& e) {
    return e.offset();
  }
  return -1;
}

struct SimdjsonDom {
  using Value = simdjson::dom::element;
  using Type = simdjson::dom::element_type;
  static bool is_object(Value v) { return v.type() == Type::OBJECT; }
  static bool is_array(Value v) { return v.type() == Type::ARRAY; }
  // On the tape, O(1); simdjson saturates it at 0xFFFFFF.
  static std::size_t size(Value v) {
    if (is_object(v)) return v.get_object().value_unsafe().size();
    if (is_array(v)) return v.get_array().value_unsafe().size();
    return 0;
  }
  template <class F>
  static void members(Value v, F f) {
    const simdjson::dom::object object = v.get_object().value_unsafe();  // a copy: not dangling
    for (simdjson::dom::key_value_pair m : object) f(m.key, m.value);
  }
  template <class F>
  static void elements(Value v, F f) {
    const simdjson::dom::array array = v.get_array().value_unsafe();
    for (simdjson::dom::element e : array) f(e);
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    switch (v.type()) {
      case Type::STRING:
        return sink.string(v.get_string().value_unsafe());
      case Type::INT64:
        return sink.integer(v.get_int64().value_unsafe());
      case Type::UINT64:
        return sink.unsigned_integer(v.get_uint64().value_unsafe());
      case Type::DOUBLE:
        return sink.number(v.get_double().value_unsafe());
      case Type::BOOL:
        return sink.boolean(v.get_bool().value_unsafe());
      default:
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (v.type()) {
      case Type::STRING:
        return store_string(kFormat, s, record, v.get_string().value_unsafe());
      case Type::INT64:
        return store_int(kFormat, s, record, v.get_int64().value_unsafe());
      case Type::UINT64:
        return store_unsigned(s, record, v.get_uint64().value_unsafe());
      case Type::DOUBLE:
        return store_double(kFormat, s, record, v.get_double().value_unsafe());
      case Type::BOOL:
        return store_bool(kFormat, s, record, v.get_bool().value_unsafe());
      case Type::NULL_VALUE:
        return store_null(kFormat, s, record);
      case Type::OBJECT:
        wrong_type(kFormat, s, "an object");
      case Type::ARRAY:
        break;
    }
    wrong_type(kFormat, s, "an array");
  }
};

class SimdjsonDomDecoder : public DecoderFor<SimdjsonDomDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    DomBinder<SimdjsonDom>::bind_feed(parse(input), rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<SimdjsonDom>::figure(parse(input));
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<SimdjsonDom>(parse(input), out);
  }

 private:
  simdjson::dom::element parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    simdjson::dom::element root;
    // realloc_if_needed=false: the caller guarantees SIMDJSON_PADDING bytes.
    if (auto error = parser_.parse(json.data(), json.size(), false).get(root))
      throw DecodeError(kLibrary, simdjson::error_message(error), error_offset(input));
    return root;
  }

  simdjson::dom::parser parser_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(simdjson_dom, wb::json::SimdjsonDomDecoder)
