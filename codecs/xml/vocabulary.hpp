// Namespace URIs and names of the XML wire formats (atom, soap). Decoders
// match elements by namespace URI + local name, never by prefix.
#pragma once

#include <string>
#include <string_view>

#include "generators/datasets.hpp"

namespace wb::xml {

inline constexpr std::string_view kAtomNs = "http://www.w3.org/2005/Atom";
inline constexpr std::string_view kDataNs = "http://schemas.microsoft.com/ado/2007/08/dataservices";
inline constexpr std::string_view kMetadataNs =
    "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";
inline constexpr std::string_view kSchemeUri =
    "http://schemas.microsoft.com/ado/2007/08/dataservices/scheme";
inline constexpr std::string_view kXmlNs = "http://www.w3.org/XML/1998/namespace";
inline constexpr std::string_view kSoapEnvNs = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view kXsiNs = "http://www.w3.org/2001/XMLSchema-instance";
inline constexpr std::string_view kServiceNs = "http://tempuri.org/";
inline constexpr std::string_view kDataContractBase = "http://schemas.datacontract.org/2004/07/";

// The data-contract namespace of a dataset's types (DataContractSerializer
// default: the base + the CLR namespace).
inline const std::string& data_contract_ns(DatasetKind kind) {
  static const std::string ns[] = {
      std::string(kDataContractBase) + std::string(kDatasets[0].type_namespace),
      std::string(kDataContractBase) + std::string(kDatasets[1].type_namespace),
      std::string(kDataContractBase) + std::string(kDatasets[2].type_namespace)};
  return ns[static_cast<int>(kind)];
}

// The vocabulary's own copy of a namespace URI equal to uri, else uri.
// Decoders that resolve prefixes themselves (prefix_scope.hpp) keep these,
// so that same_uri below is mostly a pointer compare.
inline std::string_view known_uri(std::string_view uri) {
  static const std::string_view known[] = {kAtomNs,
                                           kDataNs,
                                           kMetadataNs,
                                           kSoapEnvNs,
                                           kXsiNs,
                                           kServiceNs,
                                           data_contract_ns(DatasetKind::message),
                                           data_contract_ns(DatasetKind::airport),
                                           data_contract_ns(DatasetKind::science)};
  for (const std::string_view k : known)
    if (k.size() == uri.size() && k == uri) return k;
  return uri;
}

// Namespace URI equality, short-cut for two views of one known_uri().
inline bool same_uri(std::string_view a, std::string_view b) {
  return a.size() == b.size() && (a.data() == b.data() || a == b);
}

// Equality of short names (local names, prefixes): a byte loop, where == calls memcmp
// whenever the sizes match (m:type against m:null on every member).
inline bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace wb::xml
