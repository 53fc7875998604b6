#include <string>
#include <type_traits>
#include <utility>

#include "codecs/router.hpp"
#include "codecs/xml/vocabulary.hpp"

namespace wb {

std::optional<RouteRule> first_key_rule(const Records& records) {
  return std::visit(
      [](const auto& rows) -> std::optional<RouteRule> {
        using T = typename std::decay_t<decltype(rows)>::value_type;
        if (rows.empty()) return std::nullopt;
        const auto rule = [](std::string local, std::string value) {
          return RouteRule{xml::data_contract_ns(dataset_of<T>()), std::move(local),
                           std::move(value)};
        };
        // The member each dataset is looked up by: what a router would key on.
        if constexpr (std::is_same_v<T, Airport>)
          return rule("Name", rows.front().Name);
        else if constexpr (std::is_same_v<T, Message>)
          return rule("ID", std::to_string(rows.front().ID));
        else if constexpr (std::is_same_v<T, ScienceRow>)
          return rule("PartitionKey", rows.front().PartitionKey);
        else
          return std::nullopt;
      },
      records);
}

}  // namespace wb
