// JsonCpp: a reused CharReader (strict mode, any root) parses into a
// Json::Value, walked by the shared DomBinder; the writer builds a Json::Value
// and writes it with a StreamWriter into the caller's string.
//
// JsonCpp keeps an object's members in a std::map, sorted by name. For entity
// rows, whose properties keep their order, the decoder puts them back in
// wire order from where each value started (Value::getOffsetStart); a
// repeated name keeps its last place, not its first. The writer has no such
// way back: it writes no entity rows. JsonCpp reads
// doubles with the standard library's stream extraction (strtod, correctly
// rounded in glibc), and keeps infinity for 1e400, which is rejected here as
// by the other decoders.
#include <json/json.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "codecs/json/feed.hpp"
#include "codecs/json/input_checks.hpp"
#include "codecs/json/tree_builder.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_jsoncpp;

// kWireOrder: members in the order of the text (entity rows), not by name.
template <bool kWireOrder>
struct JsoncppDom {
  using Value = const Json::Value&;
  static bool is_object(Value v) { return v.isObject(); }
  static bool is_array(Value v) { return v.isArray(); }
  static std::size_t size(Value v) { return v.isObject() || v.isArray() ? v.size() : 0; }
  template <class F>
  static void members(Value v, F f) {
    if constexpr (kWireOrder) {
      std::vector<std::pair<std::string_view, const Json::Value*>> in_order;
      in_order.reserve(v.size());
      for (auto it = v.begin(); it != v.end(); ++it) in_order.emplace_back(name(it), &*it);
      std::sort(in_order.begin(), in_order.end(), [](const auto& a, const auto& b) {
        return a.second->getOffsetStart() < b.second->getOffsetStart();
      });
      for (const auto& [key, child] : in_order) f(key, *child);
    } else {
      for (auto it = v.begin(); it != v.end(); ++it) f(name(it), *it);
    }
  }
  static std::string_view name(const Json::Value::const_iterator& it) {
    const char* end = nullptr;
    const char* begin = it.memberName(&end);
    return {begin, static_cast<std::size_t>(end - begin)};
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const Json::Value& e : v) f(e);
  }
  template <class Sink>
  static void scalar(Value v, Sink& sink) {
    switch (v.type()) {
      case Json::stringValue: {
        const char* begin = nullptr;
        const char* end = nullptr;
        v.getString(&begin, &end);
        return sink.string({begin, static_cast<std::size_t>(end - begin)});
      }
      case Json::intValue:
        return sink.integer(v.asInt64());
      case Json::uintValue:
        return sink.unsigned_integer(v.asUInt64());
      case Json::realValue:
        return sink.number(v.asDouble());
      case Json::booleanValue:
        return sink.boolean(v.asBool());
      default:
        return sink.null();
    }
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (v.type()) {
      case Json::stringValue: {
        const char* begin = nullptr;
        const char* end = nullptr;
        v.getString(&begin, &end);
        return store_string(kFormat, s, record, {begin, static_cast<std::size_t>(end - begin)});
      }
      case Json::intValue:
        return store_int(kFormat, s, record, v.asInt64());
      case Json::uintValue:
        return store_unsigned(s, record, v.asUInt64());
      case Json::realValue:
        return store_double(kFormat, s, record, finite_double(kLibrary, v.asDouble()));
      case Json::booleanValue:
        return store_bool(kFormat, s, record, v.asBool());
      case Json::nullValue:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, v.isObject() ? "an object" : "an array");
    }
  }
};

// JsonCpp's errors say "* Line L, Column C": the byte offset of that place.
long long error_offset(std::string_view json, const std::string& errors) {
  const std::size_t at = errors.find("Line ");
  const std::size_t comma = errors.find(", Column ", at);
  if (at == std::string::npos || comma == std::string::npos) return -1;
  std::size_t line = 0, column = 0;
  const char* text = errors.data();
  std::from_chars(text + at + 5, text + comma, line);
  std::from_chars(text + comma + 9, text + errors.size(), column);
  std::size_t offset = 0;
  for (std::size_t l = 1; l < line && offset < json.size(); ++offset)
    if (json[offset] == '\n' ||
        (json[offset] == '\r' && (offset + 1 == json.size() || json[offset + 1] != '\n')))
      ++l;
  return column == 0 ? -1 : static_cast<long long>(offset + column - 1);
}

class JsoncppDecoder : public DecoderFor<JsoncppDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  JsoncppDecoder() {
    // Strict mode (no comments, trailing commas, single quotes or text after
    // the root; recursion bounded by stackLimit), but any value at the root,
    // as RFC 8259 allows, and duplicate names, as the other decoders take.
    Json::CharReaderBuilder builder;
    Json::CharReaderBuilder::strictMode(&builder.settings_);
    builder["strictRoot"] = false;
    builder["rejectDupKeys"] = false;
    builder["stackLimit"] = 1000;
    reader_.reset(builder.newCharReader());
  }
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    constexpr bool kEntity = std::is_same_v<T, EntityRow>;
    DomBinder<JsoncppDom<kEntity>>::bind_feed(parse(input), rows, this->page_out());
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<JsoncppDom<false>>::figure(parse(input));
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<JsoncppDom<false>>(parse(input), out);
  }

 private:
  // A new tree per call: keeping the last one until the next parse would
  // hold two at once.
  Json::Value parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    // JsonCpp's lexer reads a NUL byte as the end of the input.
    reject_nul(kLibrary, json, bom);
    Json::Value root;
    std::string errors;
    try {
      if (reader_->parse(json.data(), json.data() + json.size(), &root, &errors)) return root;
    } catch (const std::exception& e) {  // stackLimit: Json::RuntimeError
      throw DecodeError(kLibrary, e.what());
    }
    const long long at = error_offset(json, errors);
    throw DecodeError(kLibrary, brief(errors.substr(0, errors.find('\n', errors.find('\n') + 1))),
                      at < 0 ? at : at + static_cast<long long>(bom));
  }

  std::unique_ptr<Json::CharReader> reader_;
};

// The tree for TreeBuilder: values are made, then moved into their parent.
// Both JsonCpp's objects and arrays are std::maps, so a child's address stays
// put while its siblings are added.
class JsoncppTree {
 public:
  using Node = Json::Value*;
  using Made = Json::Value;
  static Made object() { return Json::Value(Json::objectValue); }
  static Made array() { return Json::Value(Json::arrayValue); }
  static Made string(std::string_view v) { return Json::Value(v.data(), v.data() + v.size()); }
  static Made integer(int32_t v) { return Json::Value(v); }
  static Made real(double v) { return Json::Value(v); }
  static Made boolean(bool v) { return Json::Value(v); }
  static Made null() { return Json::Value(); }
  Node root(Made&& v) {
    root_ = std::move(v);
    return &root_;
  }
  static Node put(Node object, const std::string& key, Made&& v) {
    Json::Value& slot = (*object)[key];
    slot = std::move(v);
    return &slot;
  }
  static Node append(Node array, Made&& v) { return &array->append(std::move(v)); }
  void clear() { root_ = Json::Value(); }
  const Json::Value& root() const { return root_; }

 private:
  Json::Value root_;
};

// A stream buffer that appends to a caller's string.
class StringSink : public std::streambuf {
 public:
  explicit StringSink(std::string& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out_.push_back(static_cast<char>(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

class JsoncppEncoder : public JsonEncoderFor<JsoncppEncoder> {
 public:
  static constexpr bool kEntityRows = false;  // a std::map sorts the properties
  JsoncppEncoder() {
    // No indentation; UTF-8 as it is (JsonCpp's default escapes every
    // non-ASCII character as \u); doubles with 17 significant digits.
    Json::StreamWriterBuilder builder;
    builder["indentation"] = "";
    builder["emitUTF8"] = true;
    writer_.reset(builder.newStreamWriter());
  }
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    write_feed(builder_, rows, this->envelope());
    out.clear();
    StringSink sink(out);
    std::ostream stream(&sink);
    if (writer_->write(builder_.tree().root(), &stream) != 0 || !stream)
      throw std::runtime_error("jsoncpp: StreamWriter::write failed");
    builder_.reset();
  }

 private:
  TreeBuilder<JsoncppTree> builder_;
  std::unique_ptr<Json::StreamWriter> writer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(jsoncpp, wb::json::JsoncppDecoder)
WB_DEFINE_JSON_ENCODER(jsoncpp, wb::json::JsoncppEncoder)
