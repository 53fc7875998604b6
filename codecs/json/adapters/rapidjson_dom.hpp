// What the RapidJSON decoders share: the DomBinder policy over
// rapidjson::Value, the document reset, and error reporting.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <string_view>

#include "codecs/json/feed.hpp"
#include "codecs/json/number_text.hpp"

namespace wb::json {

// Iterative parsing keeps the C++ stack flat on hostile nesting; UTF-8 is
// validated because invalid text is malformed input for every decoder
// (RapidJSON does not check it by default).
inline constexpr unsigned kRapidjsonFast =
    rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
//
// Exact numbers come as text and are converted by read_number, not by
// kParseFullPrecisionFlag: RapidJSON 1.1.0's full-precision conversion
// (StrtodFullPrecision) mishandles a number whose digits are all zero when
// the exponent is beyond the fast path's +-22: "0e40" reads as -2.4e229, and
// "0." followed by 400 zeros reads out of bounds of its powers table (a
// crash); fixtures/malformed/json/decode_message_zero_* hold both inputs.
inline constexpr unsigned kRapidjsonExact = kRapidjsonFast | rapidjson::kParseNumbersAsStringsFlag;

// A RapidJSON handler that forwards every event to Target (a Document, or
// any handler with its member names) and turns the number text of
// kRapidjsonExact into Int64/Uint64/Double events.
template <class Target>
class ExactNumbers : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ExactNumbers<Target>> {
 public:
  ExactNumbers(std::string_view library, Target& t) : library_(library), t_(t) {}
  bool Null() { return t_.Null(); }
  bool Bool(bool v) { return t_.Bool(v); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    read_number(library_, {s, n}, *this);
    return true;
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return t_.String(s, n, copy); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return t_.Key(s, n, copy); }
  bool StartObject() { return t_.StartObject(); }
  bool EndObject(rapidjson::SizeType n) { return t_.EndObject(n); }
  bool StartArray() { return t_.StartArray(); }
  bool EndArray(rapidjson::SizeType n) { return t_.EndArray(n); }

  // read_number's sink.
  void integer(int64_t v) { t_.Int64(v); }
  void unsigned_integer(uint64_t v) { t_.Uint64(v); }
  void number(double v) { t_.Double(v); }

 private:
  std::string_view library_;
  Target& t_;
};

struct RapidjsonDom {
  using Value = const rapidjson::Value&;
  static bool is_object(Value v) { return v.IsObject(); }
  static bool is_array(Value v) { return v.IsArray(); }
  static std::size_t size(Value v) {
    return v.IsObject() ? v.MemberCount() : v.IsArray() ? v.Size() : 0;
  }
  template <class F>
  static void members(Value v, F f) {
    for (const auto& m : v.GetObject())
      f(std::string_view(m.name.GetString(), m.name.GetStringLength()), m.value);
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const auto& e : v.GetArray()) f(e);
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    if (v.IsString()) return sink.string({v.GetString(), v.GetStringLength()});
    if (v.IsInt64()) return sink.integer(v.GetInt64());
    if (v.IsUint64()) return sink.unsigned_integer(v.GetUint64());
    if (v.IsDouble()) return sink.number(v.GetDouble());
    if (v.IsBool()) return sink.boolean(v.GetBool());
    sink.null();
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    if (v.IsString()) return store_string(kFormat, s, record, {v.GetString(), v.GetStringLength()});
    if (v.IsInt64()) return store_int(kFormat, s, record, v.GetInt64());
    if (v.IsUint64()) return store_unsigned(s, record, v.GetUint64());
    if (v.IsDouble()) return store_double(kFormat, s, record, v.GetDouble());
    if (v.IsBool()) return store_bool(kFormat, s, record, v.GetBool());
    if (v.IsNull()) return store_null(kFormat, s, record);
    wrong_type(kFormat, s, v.IsObject() ? "an object" : "an array");
  }
};

// A reused Document never returns its pool memory by itself: values of every
// earlier parse would pile up. Drop the old tree, then free the pool chunks.
inline void reset_document(rapidjson::Document& doc) {
  doc.SetNull();
  doc.GetAllocator().Clear();
}

// bom: bytes skipped before the parser's input, so offsets count from the
// start of the payload as given.
[[noreturn]] inline void throw_parse_error(std::string_view library, rapidjson::ParseErrorCode code,
                                           std::size_t offset, std::size_t bom) {
  throw DecodeError(library, rapidjson::GetParseError_En(code),
                    static_cast<long long>(offset + bom));
}

// RapidJSON stops at a NUL byte as if the input ended there; anything after
// it is trailing content, not JSON.
inline void check_consumed(std::string_view library, std::size_t consumed, std::size_t size,
                           std::size_t bom) {
  if (consumed != size)
    throw DecodeError(library, "a NUL byte after the document root",
                      static_cast<long long>(consumed + bom));
}

}  // namespace wb::json
