// What a decode error says. A value the model cannot hold names its row: the
// binders know the member, DecoderFor::decode adds which row (codec.hpp's
// RowError), so a user with an 8 MB payload is not left to search it. Errors
// of the document as a whole (syntax, truncation) name no row.
#include <array>
#include <string>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// The golden 3-row message payload of the format.
std::string golden(std::string_view format) {
  const std::string ext = format.starts_with("json") || format == "wcfjson" ? ".json" : ".xml";
  return read_file(source_dir() / "fixtures" / "golden" /
                   (std::string(format) + "-message-3" + ext));
}

// The golden payload with row 2's ID, 2, written as a word.
std::string bad_second_id(std::string_view format) {
  std::string payload = golden(format);
  constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kSpellings{{
      {">2</d:ID>", ">two</d:ID>"},     // atom
      {">2</a:ID>", ">two</a:ID>"},     // soap
      {"\"ID\":2,", "\"ID\":\"two\","}  // the json formats, wcfjson
  }};
  for (const auto& [from, to] : kSpellings)
    if (const auto at = payload.find(from); at != std::string::npos)
      return payload.replace(at, from.size(), to);
  ADD_FAILURE() << "no ID 2 in the " << format << " golden payload";
  return payload;
}

std::string error_of(const CodecEntry& codec, std::string_view payload) {
  try {
    decode(codec, payload, DatasetKind::message);
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "(decoded)";
}

class RowErrors : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(RowErrors, ABadValueNamesItsRow) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string what = error_of(codec, bad_second_id(codec.format));
  EXPECT_NE(what.find("member ID"), std::string::npos) << what;
  EXPECT_NE(what.find("(row 2)"), std::string::npos) << what;
}

TEST_P(RowErrors, ATruncatedDocumentNamesNoRow) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string payload = golden(codec.format);
  const std::string what = error_of(codec, std::string_view(payload).substr(0, payload.size() / 2));
  EXPECT_NE(what, "(decoded)");
  EXPECT_EQ(what.find("(row "), std::string::npos) << what;
}

// Xerces' DOM builder throws DOMException from inside the scan; its message
// alone ("implementation does not support the requested type of object or
// operation") does not say that the document was refused.
TEST(XercesDomErrors, SayTheDocumentWasRefused) {
  const std::string payload =
      read_file(source_dir() / "fixtures" / "malformed" / "xml" / "either_xml_version_1_tilde.xml");
  const CodecEntry* codec = find_codec("atom", Role::decode, "xerces-dom");
  ASSERT_NE(codec, nullptr);
  const std::string what = error_of(*codec, payload);
  EXPECT_NE(what.find("the DOM builder refused the document (DOMException 9)"), std::string::npos)
      << what;
}

INSTANTIATE_TEST_SUITE_P(Registry, RowErrors, ::testing::ValuesIn(decoder_cases()),
                         decoder_case_name);

}  // namespace
}  // namespace wb::test
