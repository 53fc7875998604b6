// What every OData writer names the same way, whatever the format: an
// entity's key as ids and links spell it, and the entity type's qualified
// name (atom's category term, verbose JSON's __metadata type).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "generators/datasets.hpp"
#include "generators/text.hpp"

namespace wb::odata {

// Appends the entity key: "(42)" or "(PartitionKey='p',RowKey='r')"; rows
// without a key of their own are numbered from 1. Appends into a reused
// buffer: no allocation per row in the encode loop.
template <class T>
void append_entity_key(std::string& out, const T& r, std::size_t index) {
  if constexpr (std::is_same_v<T, ScienceRow>) {
    out.append("(PartitionKey='").append(r.PartitionKey).append("',RowKey='");
    out.append(r.RowKey).append("')");
  } else {
    char buf[text::kMaxNumberChars];
    int64_t key = static_cast<int64_t>(index) + 1;
    if constexpr (std::is_same_v<T, Message>) key = r.ID;
    out.append(1, '(').append(buf, text::write_int(buf, key)).append(1, ')');
  }
}

// "{space}.{name}", appended into one string: GCC 12 reports a false
// -Warray-bounds on the move out of an operator+ temporary (it cannot tell
// that a string in its local buffer fits there).
inline std::string qualified_name(std::string_view space, std::string_view name) {
  std::string out;
  out.reserve(space.size() + 1 + name.size());
  out.append(space).append(1, '.').append(name);
  return out;
}

// Azure's entity type is {account}.{table}; WCF's and SAP's {namespace}.{type}.
template <class T>
const std::string& entity_type_name() {
  static const std::string name = [] {
    const DatasetInfo& d = dataset_info(dataset_of<T>());
    return qualified_name(d.type_namespace, d.azure_table ? d.entity_set : Schema<T>::type_name);
  }();
  return name;
}

// A complex type of dataset D's namespace ("WireBench.Airports.Contact").
template <class Owner, class Complex>
const std::string& complex_type_name() {
  static const std::string name =
      qualified_name(dataset_info(dataset_of<Owner>()).type_namespace, Schema<Complex>::type_name);
  return name;
}

}  // namespace wb::odata
