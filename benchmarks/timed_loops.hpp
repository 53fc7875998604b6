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

inline void time_encode(benchmark::State& state, Encoder& encoder, const Records& records,
                        std::string& out) {
  FaultCounter faults;
  for (auto _ : state) {
    encoder.encode(records, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  faults.report(state);
  set_throughput(state, out.size(), row_count(records));
}

// rows: of the original records (out may be a reused buffer of any size).
inline void time_decode(benchmark::State& state, Decoder& decoder, std::string_view input,
                        Records& out, std::size_t rows) {
  FaultCounter faults;
  for (auto _ : state) {
    decoder.decode(input, out);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  faults.report(state);
  set_throughput(state, input.size(), rows);
}

}  // namespace wb::bench
