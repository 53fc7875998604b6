// json-c: a reused json_tokener parses into json-c's tree, walked by the
// shared DomBinder; the writer builds the same tree and serializes it with
// json_object_to_json_string_length (json_object_to_json_string_ext with the
// length). json-c reads doubles with strtod (correctly rounded in glibc) and
// keeps objects in insertion order, so entity rows round-trip.
//
// json_object_get and json_object_iter_next are never called here: in our
// executables those names are Jansson's (cmake/json_libraries.cmake).
#include <json-c/json.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/json/input_checks.hpp"
#include "codecs/json/tree_builder.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_json_c;

// json-c's default string hash takes a seed it draws from getrandom at its
// first object and offers no call to fix (its calls to its seed function are
// bound inside libjson-c.so.5: no interposing either); its perl-like hash
// takes none.
const FixedSetting kFixedStringHash(
    kLibrary, "string_hash",
    "perl-like (json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE)): the default hash takes a "
    "random seed json-c cannot fix",
    [] { json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE); });

struct Release {
  void operator()(json_object* v) const { json_object_put(v); }
};
using Owned = std::unique_ptr<json_object, Release>;

// json-c's null is a NULL pointer, whose type is json_type_null.
struct JsoncDom {
  using Value = json_object*;
  static bool is_object(Value v) { return json_object_is_type(v, json_type_object); }
  static bool is_array(Value v) { return json_object_is_type(v, json_type_array); }
  static std::size_t size(Value v) {
    return is_object(v)  ? json_object_object_length(v)
           : is_array(v) ? json_object_array_length(v)
                         : 0;
  }
  template <class F>
  static void members(Value v, F f) {
    // Keys are NUL-terminated: a key with "\u0000" in it ends there.
    json_object_object_foreach(v, key, child) f(std::string_view(key), child);
  }
  template <class F>
  static void elements(Value v, F f) {
    const std::size_t n = json_object_array_length(v);
    for (std::size_t i = 0; i < n; ++i) f(json_object_array_get_idx(v, i));
  }
  // Integers as json-c holds them: saturated at the 64-bit ends.
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    switch (json_object_get_type(v)) {
      case json_type_string:
        return sink.string(
            {json_object_get_string(v), static_cast<std::size_t>(json_object_get_string_len(v))});
      case json_type_int:
        if (const int64_t i = json_object_get_int64(v); i < INT64_MAX) return sink.integer(i);
        return sink.unsigned_integer(json_object_get_uint64(v));
      case json_type_double:
        return sink.number(json_object_get_double(v));
      case json_type_boolean:
        return sink.boolean(json_object_get_boolean(v));
      default:
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (json_object_get_type(v)) {
      case json_type_string:
        return store_string(
            kFormat, s, record,
            {json_object_get_string(v), static_cast<std::size_t>(json_object_get_string_len(v))});
      case json_type_int:
        return store_integer(s, record, v);
      case json_type_double:
        return store_double(kFormat, s, record, finite_double(kLibrary, json_object_get_double(v)));
      case json_type_boolean:
        return store_bool(kFormat, s, record, json_object_get_boolean(v));
      case json_type_null:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, is_object(v) ? "an object" : "an array");
    }
  }
  // json-c reads an integer with strtoll or strtoull and keeps their
  // saturated result: 99999999999999999999 reads as 18446744073709551615,
  // silently (docs/findings.md). Those two ends of the range are therefore
  // rejected rather than read as a number the text did not say.
  static void store_integer(const FieldSlot& s, void* record, Value v) {
    const int64_t i = json_object_get_int64(v);
    if (i == INT64_MIN) throw DecodeError(kLibrary, kSaturated);
    if (i < INT64_MAX) return store_int(kFormat, s, record, i);
    const uint64_t u = json_object_get_uint64(v);
    if (u == UINT64_MAX) throw DecodeError(kLibrary, kSaturated);
    store_unsigned(s, record, u);
  }
  static constexpr const char* kSaturated =
      "an integer at the end of the 64-bit range, where json-c saturates larger ones";
};

class JsoncDecoder : public DecoderFor<JsoncDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  JsoncDecoder() {
    if (!tokener_) throw std::bad_alloc();
    json_tokener_set_flags(tokener_.get(), JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  }
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    DomBinder<JsoncDom>::bind_feed(parse(input).get(), rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<JsoncDom>::figure(parse(input).get());
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<JsoncDom>(parse(input).get(), out);
  }

 private:
  Owned parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    if (json.size() >= INT_MAX) throw DecodeError(kLibrary, "a payload of 2 GiB or more");
    json_tokener* tok = tokener_.get();
    json_tokener_reset(tok);
    Owned root(json_tokener_parse_ex(tok, json.data(), static_cast<int>(json.size())));
    std::size_t end = json_tokener_get_parse_end(tok);
    // A number at the end of the input may go on in a next chunk: json-c's
    // documented end of input is a NUL character.
    if (json_tokener_get_error(tok) == json_tokener_continue) {
      root.reset(json_tokener_parse_ex(tok, "", 1));
      end = json.size();
    }
    if (const json_tokener_error e = json_tokener_get_error(tok); e != json_tokener_success)
      throw DecodeError(kLibrary, json_tokener_error_desc(e), static_cast<long long>(end + bom));
    // json-c stops at a NUL byte as if the input ended there.
    if (end != json.size())
      throw DecodeError(kLibrary, "a NUL byte after the document root",
                        static_cast<long long>(end + bom));
    return root;
  }

  // The depth json-c allows (its default is 32); the tokener keeps its
  // stack on the heap, allocated at this depth once.
  static constexpr int kMaxDepth = 1024;
  std::unique_ptr<json_tokener, void (*)(json_tokener*)> tokener_{json_tokener_new_ex(kMaxDepth),
                                                                  json_tokener_free};
};

// The tree for TreeBuilder: a parent takes over each child's reference.
class JsoncTree : public CTree<json_object, Release> {
 public:
  static Made object() { return made(json_object_new_object()); }
  static Made array() { return made(json_object_new_array()); }
  static Made string(std::string_view v) {
    return made(json_object_new_string_len(v.data(), static_cast<int>(v.size())));
  }
  static Made integer(int32_t v) { return made(json_object_new_int(v)); }
  static Made real(double v) { return made(json_object_new_double(v)); }
  static Made boolean(bool v) { return made(json_object_new_boolean(v)); }
  static Made null() { return nullptr; }  // json-c's null
  static Node put(Node object, const std::string& key, Made v) {
    return linked(json_object_object_add(object, key.c_str(), v) == 0, v,
                  "json-c: json_object_object_add");
  }
  static Node append(Node array, Made v) {
    return linked(json_object_array_add(array, v) == 0, v, "json-c: json_object_array_add");
  }
};

class JsoncEncoder : public JsonEncoderFor<JsoncEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    write_feed(builder_, rows, this->envelope());
    // Plain (no spaces) and without json-c's default "\/" for every "/".
    std::size_t size = 0;
    const char* text = json_object_to_json_string_length(
        builder_.tree().root(), JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &size);
    if (!text) throw std::runtime_error("json-c: json_object_to_json_string_length failed");
    out.assign(text, size);  // the text lives in the root's own buffer
    builder_.reset();
  }

 private:
  TreeBuilder<JsoncTree> builder_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(json_c, wb::json::JsoncDecoder)
WB_DEFINE_JSON_ENCODER(json_c, wb::json::JsoncEncoder)
