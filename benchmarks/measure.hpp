// The measurement-depth benchmarks beside the per-payload ones of register.hpp:
// memory per operation, concurrent clients, scaling with size and
// cold starts. Nothing here names a library; everything comes from the registry.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "codecs/registry.hpp"
#include "generators/datasets.hpp"

namespace wb::bench {

// Registers the allocation-counting MemoryManager; false (and nothing
// registered) when this executable does not interpose malloc.
bool install_memory_manager();

// {format}/airport/1010/decode/{parser}/from:reference/real_time/threads:N and
// {format}/airport/1010/encode/{serializer}/real_time/threads:N for N = 1, 2, 4,
// each thread with its own parser/encoder. Registered only by
// --wirebench_threads (an unpinned run of its own, see tools/commands/bench.sh).
void register_thread_benchmarks();

// {format}/message/scaling/decode/{parser}/N (input from the reference writer)
// and {format}/message/scaling/encode/{serializer}/N for N = 10 ... 10,000
// rows: one family per codec, so Complexity(oN) fits across the sizes
// (Google Benchmark adds .../{codec}_BigO and _RMS).
void register_scaling_benchmarks();

// {format}/airport/101/decode-new-parser/{parser}: a parser made by the
// registry factory inside the timed loop, then the decode (warm caches).
void register_new_parser_benchmarks();

// {format}/{dataset}/{rows}/decode-cold-cache/{parser}: the decode of an input
// that is in no CPU cache (copies rotated over twice the last-level cache).
void register_cold_cache_benchmarks();

// calibration/{band}/compute and calibration/{band}/memory: the machine's
// speed in this band's process (benchmarks/calibration.cpp); band "" is "all".
void register_calibration_benchmarks(const std::string& band);

// A decode input checked once before timing: the reference writer's payload
// (padded) that a fresh decoder of `dec` turns back into the records. error
// says why not when it does not.
struct DecodeInput {
  std::string bytes;
  std::string error;
  Records records;
};
DecodeInput checked_decode_input(const CodecEntry& dec, DatasetKind dataset, int rows);

// The records an encoder is timed on, with its payload checked by decoding it
// back (verify.hpp); error says why it is not timed.
struct EncodeInput {
  Records records;
  std::size_t wire_bytes = 0;
  std::string error;
};
EncodeInput checked_encode_input(const CodecEntry& enc, DatasetKind dataset, int rows);

}  // namespace wb::bench
