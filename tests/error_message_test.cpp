// What a decode error says. A value the model cannot hold names its row: the
// binders know the member, DecoderFor::decode adds which row (codec.hpp's
// RowError), so a user with an 8 MB payload is not left to search it. Errors
// of the document as a whole (syntax, truncation) name no row.
#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>

#include "codecs/common/binding.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// The golden 3-row message payload of the format (.json, .xml or .bin).
std::string golden(std::string_view format) {
  return read_file(source_dir() / "fixtures" / "golden" /
                   (std::string(format) + "-message-3." + std::string(payload_extension(format))));
}

// The golden payload with row 2's ID, 2, written as id (the text as it
// stands between the tags or after "ID":).
std::string with_second_id(std::string_view format, std::string_view id) {
  std::string payload = golden(format);
  constexpr std::array<std::string_view, 3> kBefore{">", ">", "\"ID\":"};
  constexpr std::array<std::string_view, 3> kAfter{"</d:ID>", "</a:ID>", ","};  // atom, soap, json
  for (std::size_t i = 0; i < kBefore.size(); ++i) {
    const std::string from = std::string(kBefore[i]) + "2" + std::string(kAfter[i]);
    if (const auto at = payload.find(from); at != std::string::npos)
      return payload.replace(at, from.size(),
                             std::string(kBefore[i]) + std::string(id) + std::string(kAfter[i]));
  }
  ADD_FAILURE() << "no ID 2 in the " << format << " golden payload";
  return payload;
}

bool is_json(std::string_view format) {
  return format.starts_with("json") || format == "wcfjson";
}

// The golden payload with row 2's ID written as a word.
std::string bad_second_id(std::string_view format) {
  return with_second_id(format, is_json(format) ? "\"two\"" : "two");
}

std::string error_of(const CodecEntry& codec, std::string_view payload) {
  try {
    decode(codec, payload, DatasetKind::message);
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "(decoded)";
}

// The line a user sees ("library: message (at byte N)") and the offset.
struct Failure {
  std::string line = "(decoded)";
  long long offset = -1;
};
Failure failure_of(const CodecEntry& codec, std::string_view payload) {
  try {
    decode(codec, payload, DatasetKind::message);
  } catch (const DecodeError& e) {
    return {e.describe(), e.offset()};
  }
  return {};
}

class RowErrors : public ::testing::TestWithParam<DecoderCase> {};
class DocumentErrors : public ::testing::TestWithParam<DecoderCase> {};

// Text formats: a number spelled as a word. A binary format's numbers are
// bits that hold any value of their type (its rows' bad values are in the
// binary hostile fixtures).
TEST_P(RowErrors, ABadValueNamesItsRow) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string what = error_of(codec, bad_second_id(codec.format));
  EXPECT_NE(what.find("member ID"), std::string::npos) << what;
  EXPECT_NE(what.find("(row 2)"), std::string::npos) << what;
}

TEST_P(DocumentErrors, ATruncatedDocumentNamesNoRow) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string payload = golden(codec.format);
  const std::string what = error_of(codec, std::string_view(payload).substr(0, payload.size() / 2));
  EXPECT_NE(what, "(decoded)");
  EXPECT_EQ(what.find("(row "), std::string::npos) << what;
}

// 18446744073709551616 (2^64) fits no 64-bit integer, so the JSON parsers hand
// it over as a double; it once read "expected an Int32, got a floating-point
// number".
TEST_P(RowErrors, AnIntegerBeyond64BitsIsOutOfRange) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string what = error_of(codec, with_second_id(codec.format, "18446744073709551616"));
  EXPECT_NE(what, "(decoded)");
  EXPECT_EQ(what.find("floating-point"), std::string::npos) << what;
  // A library may refuse the number itself (simdjson's DOM does); a binder
  // that gets it says what is wrong with it.
  if (what.find("member ID") != std::string::npos) {
    EXPECT_TRUE(what.find("an integer out of its range") != std::string::npos ||
                what.find("'18446744073709551616' is not an Int32") != std::string::npos)
        << what;
  }
}

TEST(NumberKind, TellsAFractionFromAnIntegerOutOfRange) {
  EXPECT_EQ(number_kind(2.5), "a floating-point number");
  EXPECT_EQ(number_kind(3.0), "a floating-point number");  // "3.0" for an Int32: its spelling
  EXPECT_EQ(number_kind(18446744073709551616.0), "an integer out of its range");
  EXPECT_EQ(number_kind(-1e300), "an integer out of its range");
  EXPECT_EQ(number_kind(2147483648.0), "an integer out of its range");
  EXPECT_EQ(number_kind(-2147483648.0), "a floating-point number");  // INT32_MIN fits
}

// The JSON readers of json and wcfjson.
std::vector<DecoderCase> json_decoder_cases() {
  std::vector<DecoderCase> out = decoder_cases("json");
  for (const DecoderCase& c : decoder_cases("wcfjson")) out.push_back(c);
  return out;
}

class JsonErrors : public ::testing::TestWithParam<DecoderCase> {};

// Every JSON library here tells where a syntax error is, and the message
// says it: simdjson's DOM API and Boost.JSON's once gave none. Poco's parser
// does not (its exceptions carry pdjson's message only).
TEST_P(JsonErrors, ADoubledCommaIsPlaced) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string payload = with_second_id(codec.format, "2,");
  const long long second_comma = static_cast<long long>(payload.find(",,") + 1);
  const Failure f = failure_of(codec, payload);
  if (codec.library == "poco") {
    EXPECT_EQ(f.offset, -1) << f.line;
    return;
  }
  EXPECT_EQ(f.offset, second_comma) << f.line;
  EXPECT_NE(f.line.find("(at byte " + std::to_string(second_comma) + ")"), std::string::npos)
      << f.line;
}

// nlohmann quoted a 5,000-digit number whole: an error line of 5,093 characters.
TEST_P(JsonErrors, AHugeNumberIsQuotedShort) {
  const CodecEntry& codec = *GetParam().decoder;
  for (const char* exponent : {"", "e"}) {
    const std::string digits = std::string("1") + exponent + std::string(5000, '9');
    const Failure f = failure_of(codec, with_second_id(codec.format, digits));
    EXPECT_NE(f.line, "(decoded)");
    EXPECT_LT(f.line.size(), 300u) << f.line.substr(0, 300);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, JsonErrors, ::testing::ValuesIn(json_decoder_cases()),
                         decoder_case_name);

// Xerces' DOM builder throws DOMException from inside the scan; its message
// alone ("implementation does not support the requested type of object or
// operation") does not say that the document was refused.
TEST(XercesDomErrors, SayTheDocumentWasRefused) {
  const std::string payload =
      read_file(source_dir() / "fixtures" / "malformed" / "xml" / "either_xml_version_1_tilde.xml");
  SKIP_WITHOUT("atom.decode.xerces-dom");
  const CodecEntry* codec = find_codec("atom", Role::decode, "xerces-dom");
  ASSERT_NE(codec, nullptr);
  const std::string what = error_of(*codec, payload);
  EXPECT_NE(what.find("the DOM builder refused the document (DOMException 9)"), std::string::npos)
      << what;
}

std::vector<DecoderCase> text_decoder_cases() {
  std::vector<DecoderCase> out = decoder_cases(Syntax::json);
  for (const DecoderCase& c : decoder_cases(Syntax::xml)) out.push_back(c);
  return out;
}

// Binary formats whose ID can be given another type: the map layout's (row 2's
// ID made text, through nlohmann: BSON's lengths make a byte patch
// impractical), Thrift's (field 1 sent as a string) and Avro's (an int beyond
// Int32). The other binary formats' numbers are bits that hold any value.
std::optional<std::string> binary_bad_second_id(std::string_view format) {
  using Json = nlohmann::json;
  const std::string payload = golden(format);
  const auto patch = [](Json j) {
    j["value"][1]["ID"] = "two";
    return j;
  };
  std::string out;
  if (format == "msgpack") return Json::to_msgpack(patch(Json::from_msgpack(payload)), out), out;
  if (format == "cbor") return Json::to_cbor(patch(Json::from_cbor(payload)), out), out;
  if (format == "bson") return Json::to_bson(patch(Json::from_bson(payload)), out), out;
  using namespace std::string_view_literals;  // the spellings hold NUL bytes
  constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kSpellings{{
      {"\x15\x04"sv, "\x18\x03two"sv},  // thrift (compact): i32 2 -> binary "two"
      {"\x08\x00\x01\x00\x00\x00\x02"sv, "\x0b\x00\x01\x00\x00\x00\x03two"sv},  // thrift-binary
      {"\x04\x20My Message No. 2"sv, "\x80\x80\x80\x80\x10\x20My Message No. 2"sv},  // avro
  }};
  const std::string_view spelled_by = format == "thrift"          ? kSpellings[0].first
                                      : format == "thrift-binary" ? kSpellings[1].first
                                      : format == "avro"          ? kSpellings[2].first
                                                                  : ""sv;
  if (spelled_by.empty()) return std::nullopt;
  for (const auto& [from, to] : kSpellings)
    if (from == spelled_by)
      if (const auto at = payload.find(from); at != std::string::npos)
        return std::string(payload).replace(at, from.size(), to);
  ADD_FAILURE() << "no ID 2 in the " << format << " golden payload";
  return std::nullopt;
}

// The binary decoders whose format binary_bad_second_id can patch.
std::vector<DecoderCase> patchable_binary_cases() {
  std::vector<DecoderCase> out;
  for (const DecoderCase& c : decoder_cases(Syntax::binary))
    for (std::string_view f : {"msgpack", "cbor", "bson", "thrift", "thrift-binary", "avro"})
      if (c.decoder->format == f) out.push_back(c);
  return out;
}

class BinaryRowErrors : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(BinaryRowErrors, ABadValueNamesItsRow) {
  const CodecEntry& codec = *GetParam().decoder;
  const auto payload = binary_bad_second_id(codec.format);
  ASSERT_TRUE(payload) << codec.format;
  const std::string what = error_of(codec, *payload);
  EXPECT_NE(what.find("(row 2)"), std::string::npos) << what;
}

INSTANTIATE_TEST_SUITE_P(Registry, RowErrors, ::testing::ValuesIn(text_decoder_cases()),
                         decoder_case_name);
INSTANTIATE_TEST_SUITE_P(Registry, BinaryRowErrors, ::testing::ValuesIn(patchable_binary_cases()),
                         decoder_case_name);
INSTANTIATE_TEST_SUITE_P(Registry, DocumentErrors, ::testing::ValuesIn(decoder_cases()),
                         decoder_case_name);

}  // namespace
}  // namespace wb::test
