#include "generators/text.hpp"

#include <algorithm>
#include <cstdio>

namespace wb::text {
namespace {

template <class Int>
std::optional<Int> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  Int v{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant).
constexpr int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

struct Civil {
  int64_t y;
  unsigned m, d;
};
constexpr Civil civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

constexpr int64_t kTicksPerSecond = 10'000'000;
constexpr int64_t kTicksPerDay = kTicksPerSecond * 86'400;
constexpr int64_t kTicksPerMs = 10'000;

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, unsigned& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + static_cast<unsigned>(s[i] - '0');
  }
  return true;
}

}  // namespace

namespace {

// Clinger's fast path, as RapidJSON, simdjson and fast_float take it: a
// significand of at most 2^53 and a power of ten of at most 22 are both exact
// doubles, so one multiplication or division rounds correctly. Most numbers
// in our payloads ("-15.27", "1015.23") take it; nullopt sends the rest to
// from_chars. s has no sign.
std::optional<double> fast_double(std::string_view s) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = s.data();
  const char* const end = p + s.size();
  uint64_t m = 0;  // wraps past 19 digits, then unused
  auto digits = [&] {
    const char* const first = p;
    for (; p != end && static_cast<unsigned>(*p - '0') < 10; ++p)
      m = m * 10 + static_cast<unsigned>(*p - '0');
    return static_cast<int>(p - first);
  };
  const int whole = digits();
  if (whole == 0) return std::nullopt;
  int fraction = 0;
  if (p != end && *p == '.') {
    ++p;
    if ((fraction = digits()) == 0) return std::nullopt;
  }
  int exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool minus = p != end && *p == '-';
    if (p != end && (*p == '-' || *p == '+')) ++p;
    const char* const first = p;
    for (; p != end && static_cast<unsigned>(*p - '0') < 10; ++p)
      if (exponent < 100'000) exponent = exponent * 10 + (*p - '0');
    if (p == first) return std::nullopt;
    if (minus) exponent = -exponent;
  }
  if (p != end || whole + fraction > 19) return std::nullopt;  // leading zeros count: rare
  if (m == 0) return 0.0;                                      // whatever the exponent
  const int power = exponent - fraction;
  if (m > (uint64_t{1} << 53) || power < -22 || power > 22) return std::nullopt;
  const double d = static_cast<double>(m);
  return power < 0 ? d / kPow10[-power] : d * kPow10[power];
}

}  // namespace

std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  const bool minus = s.front() == '-';
  if (const auto v = fast_double(s.substr(minus ? 1 : 0))) return minus ? -*v : *v;
  // from_chars accepts "inf"/"nan" spellings that are not JSON/XSD numbers.
  const char c = minus && s.size() > 1 ? s[1] : s.front();
  if (c < '0' || c > '9') return std::nullopt;
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (end != s.data() + s.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return std::nullopt;
  if (ec != std::errc()) return std::nullopt;
  return v;
}

std::optional<int32_t> parse_int32(std::string_view s) {
  return parse_integer<int32_t>(s);
}
std::optional<int64_t> parse_int64(std::string_view s) {
  return parse_integer<int64_t>(s);
}

char* write_datetime(char* p, DateTime t) {
  const int64_t days = floor_div(t.ticks, kTicksPerDay);
  const int64_t rem = t.ticks - days * kTicksPerDay;
  const Civil c = civil_from_days(days);
  const int64_t secs = rem / kTicksPerSecond, frac = rem % kTicksPerSecond;
  const int n =
      std::snprintf(p, kDateTimeChars + 1, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%07lldZ",
                    static_cast<long long>(c.y), c.m, c.d, static_cast<long long>(secs / 3600),
                    static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60),
                    static_cast<long long>(frac));
  // Years outside 0000-9999 cannot be written in kDateTimeChars: snprintf
  // truncates them, and the caller's buffer is never overrun.
  return p + std::min(n, static_cast<int>(kDateTimeChars));
}

std::string datetime_string(DateTime t) {
  char buf[kDateTimeChars + 1];
  return std::string(buf, write_datetime(buf, t));
}

std::optional<DateTime> parse_datetime(std::string_view s) {
  // yyyy-mm-ddThh:mm:ss at fixed places: each field's digits at once (this
  // runs for every Timestamp of every science row).
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  bool ok = true;
  const auto two = [&](std::size_t i) {
    const unsigned a = static_cast<unsigned char>(s[i]) - '0';
    const unsigned b = static_cast<unsigned char>(s[i + 1]) - '0';
    ok &= a <= 9 && b <= 9;
    return a * 10 + b;
  };
  const unsigned y = two(0) * 100 + two(2), mo = two(5), d = two(8), h = two(11), mi = two(14),
                 se = two(17);
  if (!ok) return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return std::nullopt;
  std::size_t pos = 19;
  int64_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    int n = 0;
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (++n > 7) return std::nullopt;
      frac = frac * 10 + (s[pos++] - '0');
    }
    if (n == 0) return std::nullopt;
    for (; n < 7; ++n) frac *= 10;
  }
  const std::string_view zone = s.substr(pos);
  if (!(zone.empty() || (zone.size() == 1 && zone[0] == 'Z') || zone == "+00:00"))
    return std::nullopt;
  const int64_t days = days_from_civil(y, mo, d);
  return DateTime{days * kTicksPerDay + (int64_t{h} * 3600 + mi * 60 + se) * kTicksPerSecond +
                  frac};
}

std::string wcf_date_string(DateTime t) {
  return "/Date(" + std::to_string(floor_div(t.ticks, kTicksPerMs)) + ")/";
}

std::optional<DateTime> parse_wcf_date(std::string_view s) {
  if (s.size() < 9 || s.substr(0, 6) != "/Date(" || s.substr(s.size() - 2) != ")/")
    return std::nullopt;
  std::string_view body = s.substr(6, s.size() - 8);
  if (body.size() > 5 && (body[body.size() - 5] == '+' || body[body.size() - 5] == '-')) {
    unsigned offset;
    if (!digits(body, body.size() - 4, 4, offset)) return std::nullopt;
    body.remove_suffix(5);  // the offset is the writer's local zone; the instant is UTC ms
  }
  auto ms = parse_int64(body);
  // Edm.DateTime spans years 0001-9999; outside it the tick count overflows.
  constexpr int64_t kMaxMs = 253'402'300'799'999, kMinMs = -62'135'596'800'000;
  if (!ms || *ms > kMaxMs || *ms < kMinMs) return std::nullopt;
  return DateTime{*ms * kTicksPerMs};
}

char* write_azure_etag(char* p, DateTime t) {
  char stamp[kDateTimeChars + 1];
  const char* end = write_datetime(stamp, t);
  for (char c : std::string_view("W/\"datetime'")) *p++ = c;
  for (const char* c = stamp; c != end; ++c) {
    if (*c == ':') {
      *p++ = '%', *p++ = '3', *p++ = 'A';
    } else {
      *p++ = *c;
    }
  }
  *p++ = '\'', *p++ = '"';
  return p;
}

std::string azure_etag(DateTime t) {
  char buf[kAzureEtagChars];
  return std::string(buf, write_azure_etag(buf, t));
}

}  // namespace wb::text
