// Dataset descriptions: names, default sizes and the service metadata that
// wire formats need (entity set, service root, SOAP operation).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "model.hpp"

namespace wb {

inline constexpr uint64_t kDefaultSeed = 42;

struct DatasetInfo {
  DatasetKind kind;
  std::string_view name;       // "message", as on the command line and in benchmark names
  std::span<const int> sizes;  // default row counts
  // The size of the field figure (docs/methodology.md): the default benchmark
  // run times every serializer x parser pairing at this size and decodes only
  // the reference writer's bytes at the others (--full: every pairing at
  // every size). 0: none (entity).
  int field_rows;
  std::string_view entity_set;      // OData entity set / Azure table
  std::string_view service_root;    // xml:base and odata.metadata prefix
  std::string_view soap_operation;  // GetXResponse / GetXResult
  std::string_view type_namespace;  // EDM namespace / data-contract CLR namespace
  bool azure_table;                 // rows carry m:etag / odata.etag derived from Timestamp
  // The formats that define this dataset; empty: every format. A format not
  // listed rejects it (DecodeError / std::invalid_argument from the codec).
  std::span<const std::string_view> formats = {};
};

// Whether format defines dataset d (entity: only the OData formats).
inline bool defined_for(const DatasetInfo& d, std::string_view format) {
  if (d.formats.empty()) return true;
  for (std::string_view f : d.formats)
    if (f == format) return true;
  return false;
}

inline constexpr int kMessageSizes[] = {10, 100};
// 1,000 and 10,000 are the scaling sizes. They are run by the scaling
// families (--scaling: every codec over all four, with a Complexity fit), not
// as fixed-size points of the default run.
inline constexpr int kMessageScalingSizes[] = {10, 100, 1000, 10000};
inline constexpr int kAirportSizes[] = {101, 1010};
inline constexpr int kScienceSizes[] = {1000, 8100};
inline constexpr std::string_view kEntityFormats[] = {"atom", "atom-v2", "json", "json-verbose",
                                                      "json-v4"};

inline constexpr DatasetInfo kDatasets[] = {
    {DatasetKind::message, "message", kMessageSizes, 100, "Messages",
     "http://wirebench.example/MessageService.svc/", "GetMessages", "WireBench.Messages", false},
    {DatasetKind::airport, "airport", kAirportSizes, 101, "Airports",
     "http://wirebench.example/AirportService.svc/", "GetAirports", "WireBench.Airports", false},
    {DatasetKind::science, "science", kScienceSizes, 1000, "ScienceMeasurements",
     "https://wirebenchmeasurements.table.core.windows.net/", "GetScience", "wirebenchmeasurements",
     true},
    // No default sizes: entity is for decoding feeds of any type (real
    // payloads), so benchmarks and size tables leave it out. Its generator
    // gives the science rows as properties, for round-trip tests.
    {DatasetKind::entity,
     "entity",
     {},
     0,
     "Entities",
     "http://wirebench.example/EntityService.svc/",
     "",
     "WireBench.Entities",
     false,
     kEntityFormats},
};

inline const DatasetInfo& dataset_info(DatasetKind kind) {
  return kDatasets[static_cast<int>(kind)];
}

inline std::optional<DatasetKind> dataset_by_name(std::string_view name) {
  for (const auto& d : kDatasets)
    if (d.name == name) return d.kind;
  return std::nullopt;
}

template <class T>
constexpr DatasetKind dataset_of() {
  if constexpr (std::is_same_v<T, Message>)
    return DatasetKind::message;
  else if constexpr (std::is_same_v<T, Airport>)
    return DatasetKind::airport;
  else if constexpr (std::is_same_v<T, EntityRow>)
    return DatasetKind::entity;
  else
    return DatasetKind::science;
}

inline DatasetKind dataset_of(const Records& r) {
  return static_cast<DatasetKind>(r.index());
}

// An empty Records holding the alternative of the given dataset.
Records empty_records(DatasetKind kind);

// Deterministic rows: the same (kind, rows, seed) gives the same records on
// every machine (own PRNG, no std distributions, doubles from integers).
Records generate(DatasetKind kind, int rows, uint64_t seed = kDefaultSeed);

}  // namespace wb
