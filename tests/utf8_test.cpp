// The UTF-8 check in front of pugixml-dom-utf8 (codecs/common/utf8.hpp): the
// byte-by-byte scan that names the offset agrees with simdjson's validator,
// on the standard's edge cases and on random bytes.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>
#include <string>

#include "codecs/codec.hpp"
#include "codecs/common/utf8.hpp"

namespace wb {
namespace {

TEST(Utf8, WellFormedSequencesPass) {
  for (const std::string s :
       {"", "plain ascii", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
        "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "caf\xC3\xA9 \xE2\x82\xAC"})
    EXPECT_EQ(first_invalid_utf8(s), s.size()) << s;
}

TEST(Utf8, TheFirstBadByteIsNamed) {
  struct Case {
    std::string text;
    std::size_t offset;
  };
  const Case cases[] = {{"ab\xFF", 2},             // never in UTF-8
                        {"a\x80", 1},              // a continuation without a lead
                        {"\xC0\xAF", 0},           // overlong '/'
                        {"\xC1\xBF", 0},           // overlong
                        {"xy\xE0\x9F\xBF", 2},     // overlong 3-byte
                        {"\xED\xA0\x80", 0},       // a surrogate
                        {"\xF0\x8F\xBF\xBF", 0},   // overlong 4-byte
                        {"\xF4\x90\x80\x80", 0},   // above U+10FFFF
                        {"\xF5\x80\x80\x80", 0},   // no such lead
                        {"ok\xE2\x82", 2},         // truncated at the end
                        {"\xE2\x28\xA1", 0},       // a bad second byte
                        {"\xF0\x90\x28\xBC", 0}};  // a bad third byte
  for (const Case& c : cases) {
    EXPECT_EQ(first_invalid_utf8(c.text), c.offset) << testing::PrintToString(c.text);
    try {
      check_utf8("lib", c.text, 10);
      ADD_FAILURE() << "accepted " << testing::PrintToString(c.text);
    } catch (const DecodeError& e) {
      EXPECT_EQ(e.library(), "lib");
      EXPECT_EQ(e.offset(), 10 + static_cast<long long>(c.offset));
    }
  }
}

// Random strings biased towards multi-byte sequences: the scan and simdjson
// must agree on every one.
TEST(Utf8, AgreesWithSimdjsonOnRandomBytes) {
  std::mt19937 rng(7);
  const unsigned char pool[] = {'a',  0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2,
                                0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xE2, 0x82};
  int invalid = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = static_cast<char>(pool[rng() % sizeof pool]);
    const bool valid = simdjson::validate_utf8(s.data(), s.size());
    EXPECT_EQ(first_invalid_utf8(s) == s.size(), valid) << testing::PrintToString(s);
    invalid += valid ? 0 : 1;
  }
  EXPECT_GT(invalid, 1000);  // the pool makes both outcomes common
  EXPECT_LT(invalid, 19000);
}

}  // namespace
}  // namespace wb
