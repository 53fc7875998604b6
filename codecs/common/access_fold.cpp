#include "codecs/common/access_fold.hpp"

#include <variant>

namespace wb {
namespace {

template <class Fold>
void fold_value(Fold& f, const std::string& v) {
  f.text(v);
}
template <class Fold>
void fold_value(Fold& f, DateTime v) {
  f.value(v.ticks);
}
template <class Fold, class V>
void fold_value(Fold& f, const V& v) {
  if constexpr (is_record_list<V>) {
    f.rows(v.size());
    for (const auto& r : v)
      for_each_field(r, [&](std::string_view, const auto& m) { fold_value(f, m); });
  } else {
    f.value(v);
  }
}

}  // namespace

uint64_t content_digest(const Records& records) {
  AccessFold<true> fold;
  std::visit([&](const auto& rows) { fold_value(fold, rows); }, records);
  return fold.result();
}

}  // namespace wb
