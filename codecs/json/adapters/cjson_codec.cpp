// cJSON: cJSON_ParseWithLengthOpts into cJSON's tree (a linked list per
// container), walked by the shared DomBinder; the writer builds the same tree
// and prints it with cJSON_PrintPreallocated into the caller's string.
//
// cJSON keeps every number as a double (strtod over at most 63 characters,
// correctly rounded in glibc; a longer number is left half read and fails as
// trailing text) and every string NUL-terminated. So it does not tell 1.0
// from 1: a whole number is an integer here, and an entity row's 1E+2 is an
// Edm.Int32 where the other decoders say Edm.Double. A string with "\u0000"
// or a raw NUL byte in it would end there, silently: the adapter rejects
// those inputs (docs/findings.md).
#include <cjson/cJSON.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

constexpr std::string_view kLibrary = token::decoder_json_cjson;

struct Release {
  void operator()(cJSON* v) const { cJSON_Delete(v); }
};
using Owned = std::unique_ptr<cJSON, Release>;

struct CjsonDom {
  using Value = const cJSON*;
  static bool is_object(Value v) { return cJSON_IsObject(v); }
  static bool is_array(Value v) { return cJSON_IsArray(v); }
  static std::size_t size(Value v) {
    return is_object(v) || is_array(v) ? static_cast<std::size_t>(cJSON_GetArraySize(v)) : 0;
  }
  template <class F>
  static void members(Value v, F f) {
    for (const cJSON* c = v->child; c; c = c->next) f(std::string_view(c->string), c);
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const cJSON* c = v->child; c; c = c->next) f(c);
  }
  // Whole numbers in the int64 range, which read as integers.
  static bool whole(double d) {
    return d == std::trunc(d) && d >= -0x1p63 && d < 0x1p63 && !(d == 0 && std::signbit(d));
  }
  // A number as store() reads it below (whole ones as integers), but as
  // cJSON holds it: infinity kept.
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    if (cJSON_IsString(v)) return sink.string(v->valuestring);
    if (cJSON_IsNumber(v)) {
      const double d = v->valuedouble;
      if (whole(d)) return sink.integer(static_cast<int64_t>(d));
      return sink.number(d);
    }
    if (cJSON_IsBool(v)) return sink.boolean(cJSON_IsTrue(v));
    sink.null();
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    if (cJSON_IsString(v)) return store_string(kFormat, s, record, v->valuestring);
    if (cJSON_IsNumber(v)) {
      // Whole numbers in the int64 range as integers, as the other parsers
      // read integer text (cJSON does not keep which it was).
      const double d = finite_double(kLibrary, v->valuedouble);
      if (whole(d)) return store_int(kFormat, s, record, static_cast<int64_t>(d));
      return store_double(kFormat, s, record, d);
    }
    if (cJSON_IsBool(v)) return store_bool(kFormat, s, record, cJSON_IsTrue(v));
    if (cJSON_IsNull(v)) return store_null(kFormat, s, record);
    wrong_type(kFormat, s, is_object(v) ? "an object" : "an array");
  }
};

// The inputs whose strings cJSON would cut short: a raw NUL byte, or the
// escape \u0000 (a preceding backslash that escapes this one is not looked
// at: such an input is rejected too, a false alarm on a string nobody sends).
void reject_nul_strings(std::string_view json, std::size_t bom) {
  reject_nul(kLibrary, json, bom);
  for (std::size_t at = json.find("\\u0000"); at != std::string_view::npos;
       at = json.find("\\u0000", at + 1))
    throw DecodeError(kLibrary, "\\u0000 in a string (cJSON's strings end at NUL)",
                      static_cast<long long>(at + bom));
}

bool json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

class CjsonDecoder : public DecoderFor<CjsonDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    DomBinder<CjsonDom>::bind_feed(parse(input).get(), rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<CjsonDom>::figure(parse(input).get());
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<CjsonDom>(parse(input).get(), out);
  }

 private:
  // cJSON nests at most CJSON_NESTING_LIMIT (1000) deep, compiled into the
  // library. It does not check UTF-8 or control characters.
  static Owned parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    reject_nul_strings(json, bom);
    const char* end = nullptr;
    // Not require_null_terminated, which wants a NUL inside the given length:
    // the rest after the root must be white space.
    Owned root(cJSON_ParseWithLengthOpts(json.data(), json.size(), &end, false));
    std::size_t at = end ? static_cast<std::size_t>(end - json.data()) : 0;
    if (!root) {
      // cJSON's failing position is one past the offending byte.
      if (at > 0 && at <= json.size()) --at;
      throw DecodeError(kLibrary, "syntax error", static_cast<long long>(at + bom));
    }
    std::size_t rest = at;
    while (rest < json.size() && json_space(json[rest])) ++rest;
    if (rest != json.size())
      throw DecodeError(kLibrary, "text after the document root", static_cast<long long>(at + bom));
    return root;
  }
};

// The tree for TreeBuilder. cJSON copies keys and strings from C strings:
// scratch_ holds a string value's NUL-terminated copy.
class CjsonTree : public CTree<cJSON, Release> {
 public:
  static Made object() { return made(cJSON_CreateObject()); }
  static Made array() { return made(cJSON_CreateArray()); }
  Made string(std::string_view v) {
    scratch_.assign(v);
    return made(cJSON_CreateString(scratch_.c_str()));
  }
  static Made integer(int32_t v) { return made(cJSON_CreateNumber(v)); }
  static Made real(double v) { return made(cJSON_CreateNumber(v)); }
  static Made boolean(bool v) { return made(cJSON_CreateBool(v)); }
  static Made null() { return made(cJSON_CreateNull()); }
  static Node put(Node object, const std::string& key, Made v) {
    return linked(cJSON_AddItemToObject(object, key.c_str(), v), v, "cjson: cJSON_AddItemToObject");
  }
  static Node append(Node array, Made v) {
    return linked(cJSON_AddItemToArray(array, v), v, "cjson: cJSON_AddItemToArray");
  }

 private:
  std::string scratch_;
};

class CjsonEncoder : public JsonEncoderFor<CjsonEncoder> {
 public:
  // cJSON prints a whole double as an integer, which an entity row without
  // a type annotation (v2) reads back as one.
  static constexpr bool kEntityRows = false;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    write_feed(builder_, rows, this->envelope());
    // cJSON_PrintPreallocated fails when the text does not fit: the reused
    // string's buffer is doubled until it does, once per new size.
    out.resize(std::max<std::size_t>(out.capacity(), 4096));
    while (!cJSON_PrintPreallocated(builder_.tree().root(), out.data(),
                                    static_cast<int>(out.size()), false))
      out.resize(2 * out.size());
    out.resize(std::strlen(out.data()));
    builder_.reset();
  }

 private:
  TreeBuilder<CjsonTree> builder_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(cjson, wb::json::CjsonDecoder)
WB_DEFINE_JSON_ENCODER(cjson, wb::json::CjsonEncoder)
