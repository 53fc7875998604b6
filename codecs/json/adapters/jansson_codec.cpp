// Jansson: json_loadb into its tree, walked by the shared DomBinder; the
// writer builds the same tree and serializes it with json_dumpb. Jansson
// converts numbers with strtod (correctly rounded in glibc) and rejects an
// overflowing real or integer itself; its objects keep their members'
// insertion order, so entity rows round-trip.
#include <jansson.h>

#include <algorithm>
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

constexpr std::string_view kLibrary = token::decoder_json_jansson;

// Jansson draws its hash tables' seed from /dev/urandom at its first object
// unless one is set before; json_object_seed is that call. Any fixed value
// does: 42 is the datasets' default seed.
constexpr uint32_t kHashSeed = 42;
const FixedSetting kFixedHashSeed(kLibrary, "hash_seed",
                                  std::to_string(kHashSeed) + " (json_object_seed)",
                                  [] { json_object_seed(kHashSeed); });

struct Release {
  void operator()(json_t* v) const { json_decref(v); }
};
using Owned = std::unique_ptr<json_t, Release>;

struct JanssonDom {
  using Value = const json_t*;
  static bool is_object(Value v) { return json_is_object(v); }
  static bool is_array(Value v) { return json_is_array(v); }
  static std::size_t size(Value v) {
    return json_is_object(v) ? json_object_size(v) : json_is_array(v) ? json_array_size(v) : 0;
  }
  template <class F>
  static void members(Value v, F f) {
    // The iterator API is not const-correct; it does not change the object.
    json_t* object = const_cast<json_t*>(v);
    for (void* it = json_object_iter(object); it; it = json_object_iter_next(object, it))
      f(std::string_view(json_object_iter_key(it), json_object_iter_key_len(it)),
        json_object_iter_value(it));
  }
  template <class F>
  static void elements(Value v, F f) {
    const std::size_t n = json_array_size(v);
    for (std::size_t i = 0; i < n; ++i) f(json_array_get(v, i));
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    switch (json_typeof(v)) {
      case JSON_STRING:
        return sink.string({json_string_value(v), json_string_length(v)});
      case JSON_INTEGER:
        return sink.integer(json_integer_value(v));
      case JSON_REAL:
        return sink.number(json_real_value(v));
      case JSON_TRUE:
      case JSON_FALSE:
        return sink.boolean(json_is_true(v));
      default:
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (json_typeof(v)) {
      case JSON_STRING:
        return store_string(kFormat, s, record, {json_string_value(v), json_string_length(v)});
      case JSON_INTEGER:  // json_int_t is long long: Jansson rejects larger integers
        return store_int(kFormat, s, record, json_integer_value(v));
      case JSON_REAL:
        return store_double(kFormat, s, record, json_real_value(v));
      case JSON_TRUE:
      case JSON_FALSE:
        return store_bool(kFormat, s, record, json_is_true(v));
      case JSON_NULL:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, json_is_object(v) ? "an object" : "an array");
    }
  }
};

class JanssonDecoder : public DecoderFor<JanssonDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    DomBinder<JanssonDom>::bind_feed(parse(input).get(), rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<JanssonDom>::figure(parse(input).get());
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<JanssonDom>(parse(input).get(), out);
  }

 private:
  // Any value at the root (JSON_DECODE_ANY, as RFC 8259 allows) and "\u0000"
  // in strings (JSON_ALLOW_NUL; Jansson keeps every string's length). Jansson
  // validates UTF-8, rejects raw control characters and nests at most
  // JSON_PARSER_MAX_DEPTH (2048) deep, a limit compiled into the library.
  static Owned parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    json_error_t error;
    Owned root(json_loadb(json.data(), json.size(), JSON_DECODE_ANY | JSON_ALLOW_NUL, &error));
    // error.position counts the bytes read, the offending one included.
    const std::size_t at = error.position > 0 ? static_cast<std::size_t>(error.position) - 1 : 0;
    if (!root)
      throw DecodeError(kLibrary, brief(error.text),
                        static_cast<long long>(at + (input.size() - json.size())));
    return root;
  }
};

// The tree for TreeBuilder: every value is a new reference, which the parent
// takes over (the _new setters, even when they fail).
class JanssonTree : public CTree<json_t, Release> {
 public:
  static Made object() { return made(json_object()); }
  static Made array() { return made(json_array()); }
  static Made string(std::string_view v) { return made(json_stringn(v.data(), v.size())); }
  static Made integer(int32_t v) { return made(json_integer(v)); }
  static Made real(double v) { return made(json_real(v)); }
  static Made boolean(bool v) { return made(json_boolean(v)); }
  static Made null() { return made(json_null()); }
  static Node put(Node object, const std::string& key, Made v) {
    return linked(json_object_setn_new(object, key.data(), key.size(), v) == 0, v,
                  "jansson: json_object_setn_new", true);
  }
  static Node append(Node array, Made v) {
    return linked(json_array_append_new(array, v) == 0, v, "jansson: json_array_append_new", true);
  }
};

class JanssonEncoder : public JsonEncoderFor<JanssonEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    write_feed(builder_, rows, this->envelope());
    // json_dumpb writes what fits and returns the whole size: a second call
    // when the string's buffer was too small (a reused one rarely is).
    const json_t* root = builder_.tree().root();
    out.resize(std::max<std::size_t>(out.capacity(), 4096));
    std::size_t size = json_dumpb(root, out.data(), out.size(), JSON_COMPACT);
    if (size > out.size()) {
      out.resize(size);
      size = json_dumpb(root, out.data(), out.size(), JSON_COMPACT);
    }
    if (size == 0) throw std::runtime_error("jansson: json_dumpb failed");
    out.resize(size);
    builder_.reset();  // free the tree now rather than at the next call
  }

 private:
  TreeBuilder<JanssonTree> builder_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(jansson, wb::json::JanssonDecoder)
WB_DEFINE_JSON_ENCODER(jansson, wb::json::JanssonEncoder)
