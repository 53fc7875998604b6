// Records and payloads the benchmarks run on, made lazily: registering every
// benchmark costs nothing, and only one (format, dataset, rows) group is held
// in memory at a time (benchmarks of one group run one after another).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
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

// A payload's bytes in a buffer that starts on a page, followed by
// kInputPadding zero bytes every decoder may read. Where malloc puts a
// string is 16-byte aligned and depends on the allocations before it, which
// vary from run to run when repetitions are interleaved at random; a parser
// whose loads cross cache lines or alias its own buffers 4 KiB apart then
// runs at another speed in each run. On a page, the input's placement is
// the same in every run.
class PageAlignedBytes {
 public:
  PageAlignedBytes() = default;
  explicit PageAlignedBytes(std::string_view bytes);
  std::size_t size() const { return size_; }
  const char* data() const { return data_.get(); }
  operator std::string_view() const { return {data(), size_}; }

 private:
  struct Free {
    void operator()(char* p) const;
  };
  std::unique_ptr<char[], Free> data_;
  std::size_t size_ = 0;
};

struct Payload {
  PageAlignedBytes bytes;
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
