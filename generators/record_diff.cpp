#include "generators/record_diff.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "generators/text.hpp"

namespace wb {
namespace {

std::string show(int32_t v) {
  return std::to_string(v);
}
std::string show(double v) {
  return text::double_string(v);
}
std::string show(DateTime v) {
  return text::datetime_string(v) + " (" + std::to_string(v.ticks) + " ticks)";
}
std::string show(const std::string& v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : v) {
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}
template <class T>
std::string show(const T& record);
template <class E>
std::string show(const std::vector<E>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + show(items[i]);
  return out + "]";
}
template <class T>
std::string show(const T& record) {
  std::string out = "{";
  bool first = true;
  for_each_field(record, [&](std::string_view name, const auto& v) {
    out += (first ? "" : ", ") + std::string(name) + ": " + show(v);
    first = false;
  });
  return out + "}";
}

bool matches(double a, double b, DoubleMatch doubles) {
  if (doubles == DoubleMatch::identical)
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) ||
           (std::isnan(a) && std::isnan(b));
  return a == b || std::fabs(a - b) <= 1e-15 * std::max(std::fabs(a), std::fabs(b));
}

template <class T>
std::optional<std::string> record_difference(const T& expected, const T& actual,
                                             DoubleMatch doubles, const std::string& path);

template <class V>
std::optional<std::string> value_difference(const V& expected, const V& actual, DoubleMatch doubles,
                                            const std::string& path) {
  if constexpr (std::is_same_v<V, double>) {
    if (matches(expected, actual, doubles)) return std::nullopt;
  } else if constexpr (is_record<V>) {
    return record_difference(expected, actual, doubles, path);
  } else if constexpr (requires { typename V::value_type; } && !std::is_same_v<V, std::string>) {
    for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i)
      if (auto d = value_difference(expected[i], actual[i], doubles,
                                    path + "[" + std::to_string(i) + "]"))
        return d;
    if (expected.size() == actual.size()) return std::nullopt;
    return path + ": " + std::to_string(actual.size()) + " elements, expected " +
           std::to_string(expected.size()) + "\n  expected " + show(expected) + "\n  actual   " +
           show(actual);
  } else {
    if (expected == actual) return std::nullopt;
  }
  return path + ":\n  expected " + show(expected) + "\n  actual   " + show(actual);
}

template <class T>
std::optional<std::string> record_difference(const T& expected, const T& actual,
                                             DoubleMatch doubles, const std::string& path) {
  // An entity property holds a double as text: "close" compares the numbers.
  if constexpr (std::is_same_v<T, EntityProperty>) {
    if (doubles == DoubleMatch::close && expected.Name == actual.Name &&
        expected.Type == "Edm.Double" && actual.Type == "Edm.Double") {
      const auto a = text::parse_double(expected.Value), b = text::parse_double(actual.Value);
      if (a && b && matches(*a, *b, doubles)) return std::nullopt;
    }
  }
  std::optional<std::string> found;
  std::apply(
      [&](const auto&... field) {
        ((found = found ? found
                        : value_difference(expected.*(field.member), actual.*(field.member),
                                           doubles, path + "." + std::string(field.name))),
         ...);
      },
      Schema<T>::fields);
  return found;
}

}  // namespace

std::optional<std::string> first_difference(const Records& expected, const Records& actual,
                                            DoubleMatch doubles) {
  if (expected.index() != actual.index()) return "the records are of different datasets";
  return std::visit(
      [&](const auto& want) -> std::optional<std::string> {
        using Rows = std::decay_t<decltype(want)>;
        const Rows& got = std::get<Rows>(actual);
        for (std::size_t i = 0; i < std::min(want.size(), got.size()); ++i)
          if (auto d = record_difference(want[i], got[i], doubles, "row " + std::to_string(i)))
            return "first difference at " + *d + "\n  expected row " + show(want[i]) +
                   "\n  actual row   " + show(got[i]);
        if (want.size() != got.size())
          return std::to_string(got.size()) + " rows, expected " + std::to_string(want.size()) +
                 " (the common rows are equal)";
        return std::nullopt;
      },
      expected);
}

std::string describe_row(const Records& records, std::size_t row) {
  return std::visit([&](const auto& rows) { return show(rows.at(row)); }, records);
}

}  // namespace wb
