// generators/text.hpp: the lexical forms every codec shares. A mistake
// here would make every format agree with every other and still be wrong, so
// the expected texts are written out by hand.
#include "generators/text.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "tests/test_support.hpp"

namespace wb::text {
namespace {

constexpr int64_t kTicks2026 = 17'672'256'000'000'000;  // 2026-01-01T00:00:00Z
constexpr int64_t kTicksPerSecond = 10'000'000;

TEST(TextDateTime, FormatsAzureSevenDigits) {
  EXPECT_EQ(datetime_string({0}), "1970-01-01T00:00:00.0000000Z");
  EXPECT_EQ(datetime_string({kTicks2026}), "2026-01-01T00:00:00.0000000Z");
  EXPECT_EQ(datetime_string({kTicks2026 + 86'399 * kTicksPerSecond + 1234567}),
            "2026-01-01T23:59:59.1234567Z");
  EXPECT_EQ(datetime_string({-1}), "1969-12-31T23:59:59.9999999Z");
  // 2024-02-29 (a leap day): 19782 days after the epoch.
  EXPECT_EQ(datetime_string({19'782LL * 86'400 * kTicksPerSecond}), "2024-02-29T00:00:00.0000000Z");
  EXPECT_EQ(datetime_string({0}).size(), kDateTimeChars);
}

TEST(TextDateTime, RoundTrips) {
  for (int64_t ticks : {int64_t{0}, int64_t{1}, int64_t{-1}, kTicks2026, kTicks2026 + 9'999'999,
                        int64_t{951'782'400} * kTicksPerSecond + 5 /* 2000-02-29 */,
                        int64_t{-2'208'988'800} * kTicksPerSecond /* 1900-01-01 */,
                        int64_t{253'402'300'799} * kTicksPerSecond /* 9999-12-31T23:59:59 */}) {
    SCOPED_TRACE(ticks);
    const auto back = parse_datetime(datetime_string({ticks}));
    ASSERT_TRUE(back.has_value()) << datetime_string({ticks});
    EXPECT_EQ(back->ticks, ticks);
  }
}

TEST(TextDateTime, ParsesZeroToSevenFractionDigits) {
  const int64_t base = kTicks2026 + 12 * 3600 * kTicksPerSecond;
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00Z")->ticks, base);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.1Z")->ticks, base + 1'000'000);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.12Z")->ticks, base + 1'200'000);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.123Z")->ticks, base + 1'230'000);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.1234Z")->ticks, base + 1'234'000);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.12345Z")->ticks, base + 1'234'500);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.123456Z")->ticks, base + 1'234'560);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.1234567Z")->ticks, base + 1'234'567);
  // Without a zone (as WCF Data Services writes Edm.DateTime) and with +00:00.
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00.5")->ticks, base + 5'000'000);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00")->ticks, base);
  EXPECT_EQ(parse_datetime("2026-01-01T12:00:00+00:00")->ticks, base);
}

TEST(TextDateTime, RejectsMalformed) {
  for (std::string_view s :
       {"", "2026", "2026-01-01", "2026-01-01 12:00:00Z", "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T00:60:00Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.12345678Z",
        "2026-01-01T00:00:00ZZ", "2026-01-01T00:00:00+01:00", "2026-1-01T00:00:00Z",
        "2026-01-01T00:00:0xZ", "x026-01-01T00:00:00Z"}) {
    EXPECT_FALSE(parse_datetime(s).has_value()) << s;
  }
}

TEST(TextWcfDate, FormatsMilliseconds) {
  EXPECT_EQ(wcf_date_string({0}), "/Date(0)/");
  EXPECT_EQ(wcf_date_string({kTicks2026}), "/Date(1767225600000)/");
  EXPECT_EQ(wcf_date_string({kTicks2026 + 1'230'000}), "/Date(1767225600123)/");
  EXPECT_EQ(wcf_date_string({-10'000}), "/Date(-1)/");
}

TEST(TextWcfDate, ParsesWithAndWithoutOffset) {
  EXPECT_EQ(parse_wcf_date("/Date(1767225600123)/")->ticks, kTicks2026 + 1'230'000);
  // The offset names the writer's zone; the number is already UTC.
  EXPECT_EQ(parse_wcf_date("/Date(1767225600123+0100)/")->ticks, kTicks2026 + 1'230'000);
  EXPECT_EQ(parse_wcf_date("/Date(1767225600123-0530)/")->ticks, kTicks2026 + 1'230'000);
  EXPECT_EQ(parse_wcf_date("/Date(-1)/")->ticks, -10'000);
  EXPECT_EQ(parse_wcf_date("/Date(0+0000)/")->ticks, 0);
  for (int64_t ms : {int64_t{0}, int64_t{-86'400'001}, int64_t{1'767'225'600'123}}) {
    const DateTime t{ms * 10'000};
    EXPECT_EQ(parse_wcf_date(wcf_date_string(t))->ticks, t.ticks);
  }
}

TEST(TextWcfDate, RejectsMalformed) {
  for (std::string_view s : {"", "/Date()/", "/Date(x)/", "Date(1)", "/Date(1)", "/Date(1+01)/",
                             "/Date(1+01x0)/", "\\/Date(1)\\/", "/date(1)/"}) {
    EXPECT_FALSE(parse_wcf_date(s).has_value()) << s;
  }
}

TEST(TextNumbers, ParsesEverySpelling) {
  EXPECT_EQ(parse_double("0"), 0.0);
  EXPECT_EQ(parse_double("3"), 3.0);
  EXPECT_EQ(parse_double("1.5E+2"), 150.0);
  EXPECT_EQ(parse_double("1.5e2"), 150.0);
  EXPECT_EQ(parse_double("15e-1"), 1.5);
  EXPECT_EQ(parse_double("+2.5"), 2.5);  // XML Schema allows a leading '+'
  EXPECT_EQ(parse_double("0.30000000000000004"), 0.30000000000000004);
  EXPECT_EQ(parse_double("1.7976931348623157e308"), std::numeric_limits<double>::max());
  EXPECT_EQ(parse_double("4.9e-324"), std::numeric_limits<double>::denorm_min());
  const auto neg_zero = parse_double("-0.0");
  ASSERT_TRUE(neg_zero.has_value());
  EXPECT_EQ(*neg_zero, 0.0);
  EXPECT_TRUE(std::signbit(*neg_zero));
}

TEST(TextNumbers, RejectsNonNumbers) {
  for (std::string_view s : {"", "+", "-", "inf", "-inf", "INF", "nan", "NaN", "infinity", "1e400",
                             "-1e400", "1.5x", " 1", "1 ", "0x10", "e5", ".", "1,5", "--1"}) {
    EXPECT_FALSE(parse_double(s).has_value()) << '"' << s << '"';
  }
}

TEST(TextNumbers, ShortestDoublesRoundTrip) {
  EXPECT_EQ(double_string(0.1), "0.1");
  EXPECT_EQ(double_string(-12.345678), "-12.345678");
  EXPECT_EQ(double_string(150), "150");
  EXPECT_EQ(double_string(-0.0), "-0");
  for (double v :
       {0.1, 1.0 / 3, 1e-300, 123456.789012, -179.999999, 5e-324, 1.7976931348623157e308}) {
    EXPECT_EQ(parse_double(double_string(v)), v) << double_string(v);
  }
}

// parse_double takes Clinger's fast path for short significands and small
// powers of ten and from_chars for the rest: both must give from_chars'
// correctly rounded double for every spelling, at the edges of the fast path
// (2^53, 10^22, 19 digits) and with zeros under any exponent.
TEST(TextNumbers, AgreesWithFromCharsOnRandomSpellings) {
  std::mt19937_64 rng(20261130);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  int fast_edge = 0;
  for (int i = 0; i < 200'000; ++i) {
    std::string s = pick(2) ? "-" : "";
    const int int_digits = 1 + pick(20), frac_digits = pick(3) ? pick(22) : 0;
    for (int d = 0; d < int_digits; ++d) s += static_cast<char>('0' + (pick(4) ? pick(10) : 0));
    if (frac_digits) s += '.';
    for (int d = 0; d < frac_digits; ++d) s += static_cast<char>('0' + (pick(4) ? pick(10) : 0));
    if (pick(2))
      s += (pick(2) ? "e" : "E") + std::string(pick(2) ? "-" : "") + std::to_string(pick(40));
    double expected = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), expected);
    const auto got = parse_double(s);
    if (r.ec != std::errc()) {
      EXPECT_FALSE(got.has_value()) << s;
      continue;
    }
    ASSERT_TRUE(got.has_value()) << s;
    EXPECT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(expected)) << s;
    fast_edge += int_digits + frac_digits <= 19;
  }
  EXPECT_GT(fast_edge, 50'000);  // the fast path was exercised, not only from_chars
  for (std::string_view s : {"9007199254740993", "9007199254740992e22", "9007199254740993e-22",
                             "1e22", "1e23", "1e-22", "1e-23", "1234567890123456789",
                             "12345678901234567890", "0.1e-21", "0e99999", "-0e-99999"}) {
    double expected = 0;
    std::from_chars(s.data(), s.data() + s.size(), expected);
    ASSERT_TRUE(parse_double(s).has_value()) << s;
    EXPECT_EQ(std::bit_cast<uint64_t>(*parse_double(s)), std::bit_cast<uint64_t>(expected)) << s;
  }
}

TEST(TextNumbers, Int32Range) {
  EXPECT_EQ(parse_int32("2147483647"), 2147483647);
  EXPECT_EQ(parse_int32("-2147483648"), -2147483647 - 1);
  EXPECT_EQ(parse_int32("+7"), 7);
  for (std::string_view s : {"", "2147483648", "-2147483649", "1.0", "1e2", "0x1", " 1", "+"})
    EXPECT_FALSE(parse_int32(s).has_value()) << '"' << s << '"';
  EXPECT_EQ(parse_int64("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(parse_int64("9223372036854775808").has_value());
}

TEST(TextAzureEtag, ExactText) {
  EXPECT_EQ(azure_etag({kTicks2026}), "W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"");
  EXPECT_EQ(azure_etag({kTicks2026 + 45'296 * kTicksPerSecond + 7}),
            "W/\"datetime'2026-01-01T12%3A34%3A56.0000007Z'\"");
  EXPECT_LE(azure_etag({kTicks2026}).size(), kAzureEtagChars);
}

}  // namespace
}  // namespace wb::text
