#include "benchmarks/verify.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <tuple>
#include <type_traits>

#include "codecs/registry.hpp"

namespace wb::bench {
namespace {

template <class T>
bool same(const T& a, const T& b, double tol);

bool same(double a, double b, double tol) {
  if (tol == 0) return a == b;
  return std::fabs(a - b) <= tol * std::max(std::fabs(a), std::fabs(b));
}

template <class E>
bool same(const std::vector<E>& a, const std::vector<E>& b, double tol) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i], tol)) return false;
  return true;
}

template <class T>
bool same(const T& a, const T& b, double tol) {
  if constexpr (is_record<T>) {
    return std::apply(
        [&](const auto&... field) { return (same(a.*field.member, b.*field.member, tol) && ...); },
        Schema<T>::fields);
  } else {
    return a == b;
  }
}

// The first field of a row that differs, by name.
template <class T>
std::string_view differing_field(const T& a, const T& b, double tol) {
  std::string_view name;
  std::apply(
      [&](const auto&... field) {
        ((name.empty() && !same(a.*field.member, b.*field.member, tol) ? (name = field.name)
                                                                       : name),
         ...);
      },
      Schema<T>::fields);
  return name;
}

}  // namespace

std::string diff_records(const Records& want, const Records& got, double rel_tolerance) {
  if (want.index() != got.index()) return "decoded into a different dataset";
  return std::visit(
      [&](const auto& w) -> std::string {
        const auto& g = std::get<std::decay_t<decltype(w)>>(got);
        if (w.size() != g.size())
          return "decoded " + std::to_string(g.size()) + " rows, expected " +
                 std::to_string(w.size());
        for (std::size_t i = 0; i < w.size(); ++i)
          if (!same(w[i], g[i], rel_tolerance))
            return "row " + std::to_string(i) + ": " +
                   std::string(differing_field(w[i], g[i], rel_tolerance)) + " differs";
        return {};
      },
      want);
}

std::string check_encoded(std::string_view format, const Records& records, std::string_view payload,
                          bool& checked) {
  checked = false;
  std::string why;
  const std::string input = padded_copy(payload);
  for (const CodecEntry* entry : codecs_of(format, Role::decode)) {
    if (!entry->exact) continue;
    checked = true;
    Records decoded = empty_records(dataset_of(records));
    try {
      entry->make_decoder()->decode(input, decoded);
      why = diff_records(records, decoded, 0);
    } catch (const DecodeError& e) {
      why = e.describe();
    } catch (const std::exception& e) {
      why = std::string(entry->library) + ": " + e.what();
    }
    if (why.empty()) return {};
    why = "does not decode back with " + std::string(entry->library) + ": " + why;
  }
  return why;
}

}  // namespace wb::bench
