// Records and payloads the benchmarks run on, made lazily: registering every
// benchmark costs nothing, and only one (format, dataset, rows) group is held
// in memory at a time (benchmarks of one group run one after another).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "codecs/registry.hpp"
#include "generators/datasets.hpp"

namespace wb::bench {

// The dataset seed of this run (--wirebench_seed=N, WIREBENCH_SEED, else 42).
uint64_t seed();
void set_seed(uint64_t seed);

// The serializer whose payload parse-only and the reference benchmarks use:
// the "reference" encoder of the format if there is one, else its first.
const CodecEntry* reference_encoder(std::string_view format);

struct Payload {
  std::string bytes;  // padded_copy: kInputPadding readable bytes after the end
  std::string error;  // why the serializer failed; empty when bytes are valid
};

class Group {
 public:
  Group(DatasetKind dataset, int rows);
  const Records& records() const { return records_; }
  // The payload `encoder` writes for records(), encoded on first use.
  const Payload& payload(const CodecEntry& encoder);

 private:
  Records records_;
  std::map<std::string_view, Payload> payloads_;  // by library token
};

// The group for (format, dataset, rows), built on first use and kept for the
// process: repetitions interleaved at random enter the groups in any order,
// and rebuilding one on each entry (generate, then encode every payload)
// would cost more than timing it. A process holds one band of sizes
// (band.hpp), so what stays is bounded by the band's payloads.
Group& group(std::string_view format, DatasetKind dataset, int rows);

}  // namespace wb::bench
