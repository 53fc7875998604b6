// Lexical forms shared by every codec: shortest round-trip doubles, integers,
// ISO-8601 / WCF dates, and the Azure ETag. One implementation so that every
// writer emits the same text and every reader accepts the same spellings.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "generators/model.hpp"

namespace wb::text {

// Largest text any of the number/date formatters below writes.
inline constexpr std::size_t kMaxNumberChars = 40;

// Shortest text that reads back to exactly v (std::to_chars). Returns the end.
inline char* write_double(char* p, double v) {
  return std::to_chars(p, p + kMaxNumberChars, v).ptr;
}
template <class Int>
inline char* write_int(char* p, Int v) {
  return std::to_chars(p, p + kMaxNumberChars, v).ptr;
}
inline std::string double_string(double v) {
  char buf[kMaxNumberChars];
  return std::string(buf, write_double(buf, v));
}

// Exact parse of a JSON/XML number spelling ("1.5E+2", "-0.0", "3"); a
// leading '+' is accepted as XML Schema allows. nullopt if it is not a number.
std::optional<double> parse_double(std::string_view s);
std::optional<int32_t> parse_int32(std::string_view s);
std::optional<int64_t> parse_int64(std::string_view s);

// Edm.DateTime as Azure writes it: "2026-01-01T00:00:00.0000000Z".
inline constexpr std::size_t kDateTimeChars = 28;
char* write_datetime(char* p, DateTime t);
std::string datetime_string(DateTime t);
// Accepts 0-7 fractional digits and an optional "Z" (or "+00:00").
std::optional<DateTime> parse_datetime(std::string_view s);

// WCF's "/Date(ms)/" text (without the JSON escaping of '/'); reads an
// optional "+hhmm"/"-hhmm" offset suffix, which does not change the instant.
std::string wcf_date_string(DateTime t);
std::optional<DateTime> parse_wcf_date(std::string_view s);

// Azure Table ETag for a row: W/"datetime'2026-01-01T00%3A00%3A00.0000000Z'".
inline constexpr std::size_t kAzureEtagChars = kDateTimeChars + 6 + 16;
char* write_azure_etag(char* p, DateTime t);
std::string azure_etag(DateTime t);

}  // namespace wb::text
