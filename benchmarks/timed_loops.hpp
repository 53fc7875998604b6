// The timed loops every benchmark family shares (register, scaling, threads):
// only the operation inside, the page-fault counter around it, throughput
// after it. Inputs and objects are prepared (and checked) by the caller.
#pragma once

#include <string>
#include <string_view>

#include <benchmark/benchmark.h>

#include "benchmarks/counters.hpp"
#include "codecs/codec.hpp"

namespace wb::bench {

// The loop of every benchmark: op() per iteration, the page-fault counter
// around it. In the memory run, one call's allocations are measured
// (measure_call) and the loop's iterations are left empty: its figures are
// that call's, and Google Benchmark 1.7.1 makes a memory run after every
// repetition, of up to 16 iterations, which on the slow cases cost more
// than the timed repetitions.
template <class Op>
inline void timed_loop(benchmark::State& state, Op&& op) {
  const bool memory_run = probe::measure_call(op);
  FaultCounter faults;
  if (memory_run || probe::memory_only) {
    for (auto _ : state) {
    }
  } else {
    for (auto _ : state) op();
  }
  faults.report(state);
}

inline void time_encode(benchmark::State& state, Encoder& encoder, const Records& records,
                        std::string& out) {
  timed_loop(state, [&] {
    encoder.encode(records, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  });
  set_throughput(state, out.size(), row_count(records));
}

// rows: of the original records (out may be a reused buffer of any size).
inline void time_decode(benchmark::State& state, Decoder& decoder, std::string_view input,
                        Records& out, std::size_t rows) {
  timed_loop(state, [&] {
    decoder.decode(input, out);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  });
  set_throughput(state, input.size(), rows);
}

}  // namespace wb::bench
