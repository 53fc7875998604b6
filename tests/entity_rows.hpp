// Entity rows written in a test as lists of properties, for the tests of the
// generic entity dataset and of the carriers that take its rows.
#pragma once

#include <utility>
#include <vector>

#include "codecs/common/entity.hpp"

namespace wb::test {

using Props = std::vector<EntityProperty>;

// One row per list of properties, in order.
inline Records rows(std::vector<Props> props) {
  std::vector<EntityRow> out;
  for (Props& p : props) out.push_back({std::move(p)});
  return out;
}

}  // namespace wb::test
