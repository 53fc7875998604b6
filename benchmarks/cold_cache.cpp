// decode-cold-cache: a decode whose input is not in any CPU cache, as for a
// request that has just arrived from the network card. The checked input is
// copied enough times that the copies span more than twice the last-level
// cache, and each iteration decodes the next copy: by the time a copy comes
// round again the others have evicted it. The parser and the output records
// are reused as in decode/, so the difference to decode/ is the input's
// cache misses alone. Opt-in (--wirebench_cold_cache): it adds a benchmark
// per decoder at every default size.
#include <algorithm>
#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/measure.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {
namespace {

// The largest cache sysfs lists for CPU 0 ("32768K"), or 0 when it lists none
// (a VM may hide them).
std::size_t last_level_cache_bytes() {
  std::size_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(in >> text) || text.empty()) continue;
    std::size_t value = std::stoull(text);
    if (text.back() == 'K') value <<= 10;
    if (text.back() == 'M') value <<= 20;
    largest = std::max(largest, value);
  }
  return largest;
}

// Twice the last-level cache, and at least 64 MiB when sysfs hides it (the
// largest caches of current server parts are 32 MiB per core complex).
std::size_t footprint_bytes() {
  return std::max<std::size_t>(2 * last_level_cache_bytes(), std::size_t{64} << 20);
}

void run_cold_cache(benchmark::State& state, const CodecEntry& dec, DatasetKind dataset, int rows) {
  const DecodeInput in = checked_decode_input(dec, dataset, rows);
  if (!in.error.empty()) return state.SkipWithError(in.error.c_str());
  const std::size_t copies = std::max<std::size_t>(2, footprint_bytes() / in.bytes.size() + 1);
  const std::vector<std::string> inputs(copies, in.bytes);  // each keeps the padding
  auto decoder = dec.make_decoder();
  Records out = empty_records(dataset);
  std::size_t next = 0;
  timed_loop(state, [&] {
    decoder->decode(inputs[next], out);
    next = next + 1 == copies ? 0 : next + 1;
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  });
  set_throughput(state, in.bytes.size(), row_count(in.records));
  state.counters["exact"] = dec.exact ? 1 : 0;
  state.counters["input_copies"] = static_cast<double>(copies);
}

}  // namespace

void register_cold_cache_benchmarks() {
  for (std::string_view format : formats())
    for (const DatasetInfo& info : kDatasets) {
      if (!defined_for(info, format)) continue;
      for (int rows : info.sizes)
        for (const CodecEntry* dec : codecs_of(format, Role::decode)) {
          const std::string name = std::string(format) + "/" + std::string(info.name) + "/" +
                                   std::to_string(rows) + "/decode-cold-cache/" +
                                   std::string(dec->library);
          register_in_band(name, [dec, kind = info.kind, rows](benchmark::State& s) {
            run_cold_cache(s, *dec, kind, rows);
          });
        }
    }
}

}  // namespace wb::bench
