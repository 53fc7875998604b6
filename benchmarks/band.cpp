#include "benchmarks/band.hpp"

#include <charconv>

namespace wb::bench {
namespace {

RowsBand the_band;

bool parse_int(std::string_view text, int& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

}  // namespace

bool parse_rows_band(std::string_view text, RowsBand& band) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) return false;
  RowsBand parsed;
  if (!parse_int(text.substr(0, dash), parsed.low)) return false;
  const std::string_view high = text.substr(dash + 1);
  if (!high.empty() && !parse_int(high, parsed.high)) return false;
  if (parsed.high < parsed.low) return false;
  band = parsed;
  return true;
}

void set_rows_band(RowsBand band) {
  the_band = band;
}

const RowsBand& rows_band() {
  return the_band;
}

int rows_in_name(std::string_view name) {
  // {format}/{dataset}/{rows}/…: the third component, when it is a number.
  std::size_t first = name.find('/');
  if (first == std::string_view::npos || name.substr(0, first) == "reference") return 0;
  std::size_t second = name.find('/', first + 1);
  if (second == std::string_view::npos) return 0;
  std::size_t third = name.find('/', second + 1);
  std::string_view field = name.substr(
      second + 1, third == std::string_view::npos ? std::string_view::npos : third - second - 1);
  int rows = 0;
  return parse_int(field, rows) ? rows : 0;
}

}  // namespace wb::bench
