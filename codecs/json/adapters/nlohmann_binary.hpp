// nlohmann/json's binary formats (msgpack, CBOR, BSON) in the map layout
// (feed.hpp, write_map_feed): the encoder builds the same ordered_json tree
// as the JSON encoder and writes it with to_msgpack / to_cbor / to_bson; the
// decoder is from_msgpack & co. (nlohmann's DOM builder over its binary
// reader) behind a nesting limit, then the shared DomBinder.
//
// Format is a traits struct:
//   static constexpr std::string_view kName, kLibrary;
//   static constexpr nlohmann::detail::input_format_t kInput;
//   static void write(const NlohmannBuilder::Json&, std::string& out);
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "codecs/json/adapters/nlohmann_builder.hpp"
#include "codecs/json/adapters/nlohmann_dom.hpp"
#include "codecs/json/feed.hpp"

namespace wb::json {

// The map layout nests 5 deep (feed, value, row, Contacts, contact).
// nlohmann's binary readers recurse once per level, so 100,000 nested arrays
// overflow the stack: nesting past this is refused before it is read.
inline constexpr std::size_t kBinaryMaxDepth = 64;

template <class Format>
class NlohmannBinaryEncoder : public EncoderFor<NlohmannBinaryEncoder<Format>> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    sink_.reset();
    write_map_feed(sink_, rows);
    out.clear();
    Format::write(sink_.root(), out);  // appends, reusing out's capacity
    sink_.reset();
  }

 private:
  NlohmannBuilder sink_;
};

// nlohmann's own DOM builder (what from_msgpack uses), with the nesting
// counted on the way in: a start event past kBinaryMaxDepth stops the parse.
template <class Json>
class DepthLimitedDom {
 public:
  using Dom = nlohmann::detail::json_sax_dom_parser<Json>;
  using number_integer_t = typename Json::number_integer_t;
  using number_unsigned_t = typename Json::number_unsigned_t;
  using number_float_t = typename Json::number_float_t;
  using string_t = typename Json::string_t;
  using binary_t = typename Json::binary_t;

  explicit DepthLimitedDom(Json& result) : dom_(result, true) {}
  bool too_deep() const { return too_deep_; }

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return dom_.number_float(v, s); }
  bool string(string_t& v) { return dom_.string(v); }
  bool binary(binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return enter() && dom_.start_object(n); }
  bool key(string_t& k) { return dom_.key(k); }
  bool end_object() { return --depth_, dom_.end_object(); }
  bool start_array(std::size_t n) { return enter() && dom_.start_array(n); }
  bool end_array() { return --depth_, dom_.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t at, const std::string& token, const Exception& e) {
    return dom_.parse_error(at, token, e);  // throws
  }

 private:
  bool enter() {
    if (++depth_ <= kBinaryMaxDepth) return true;
    too_deep_ = true;
    return false;
  }
  Dom dom_;
  std::size_t depth_ = 0;
  bool too_deep_ = false;
};

template <class Format>
class NlohmannBinaryDecoder : public DecoderFor<NlohmannBinaryDecoder<Format>> {
 public:
  using Json = nlohmann::json;
  using Policy = NlohmannDom<Json, &Format::kName>;

  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    DomBinder<Policy>::bind_feed(parse(input), rows, nullptr);
  }
  std::size_t parse_only(std::string_view input) final {
    return DomBinder<Policy>::figure(parse(input));
  }

 private:
  static Json parse(std::string_view input) {
    Json result;
    DepthLimitedDom<Json> sax(result);
    try {
      // strict: the input must be one value and nothing after it.
      Json::sax_parse(input.begin(), input.end(), &sax, Format::kInput, true);
    } catch (const nlohmann::json::parse_error& e) {
      throw DecodeError(Format::kLibrary, e.what(), static_cast<long long>(e.byte));
    } catch (const nlohmann::json::exception& e) {
      throw DecodeError(Format::kLibrary, e.what());
    }
    if (sax.too_deep())
      throw DecodeError(Format::kLibrary, "nested more than " + std::to_string(kBinaryMaxDepth) +
                                              " deep (the adapter's limit)");
    return result;
  }
};

}  // namespace wb::json
