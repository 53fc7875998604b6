// What the standalone loops share (standalone.cpp, xerces.cpp): the payloads
// our harness parses, the loop around each library's parse, and the walks a
// DOM loop can add.
#pragma once

#include <cstdlib>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/counters.hpp"
#include "codecs/registry.hpp"

namespace wb::standalone {

inline constexpr int kRows = 8100;

// The payload our harness parses: the reference writer's {format}/science/8100.
inline std::string encode(const char* format) {
  const char* seed = std::getenv("WIREBENCH_SEED");
  std::string out;
  wb::find_codec(format, wb::Role::encode, "reference")
      ->make_encoder()
      ->encode(wb::generate(wb::DatasetKind::science, kRows,
                            seed && *seed ? std::strtoull(seed, nullptr, 10) : wb::kDefaultSeed),
               out);
  return out;
}
inline const std::string& payload() {
  static const std::string padded = wb::padded_copy(encode("json"));
  return padded;
}
inline const std::string& atom_payload() {
  static const std::string atom = encode("atom");
  return atom;
}

template <class Parse>
void run(benchmark::State& state, Parse&& parse, const std::string& in = payload()) {
  try {
    parse(in);  // once untimed: a library that rejects the payload is not timed
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  wb::bench::FaultCounter faults;
  // A figure the parse returns (our seam's parse_only) is consumed, as the
  // suite's parse-only loop consumes it.
  if constexpr (std::is_void_v<decltype(parse(in))>) {
    for (auto _ : state) parse(in);
  } else {
    for (auto _ : state) benchmark::DoNotOptimize(parse(in));
  }
  faults.report(state);
  wb::bench::set_throughput(state, in.size(), kRows);
}

// What a DOM loop does after the parse: nothing, a bare traversal (every
// node reached, nothing read), or the least walk any binder needs.
enum class Walk { none, traverse, visit };

// The atom seam: parse-only, and the full decode + bind the walk loops bound.
inline void atom_seam(benchmark::State& state, const char* library, bool bind) {
  auto decoder = wb::find_codec("atom", wb::Role::decode, library)->make_decoder();
  wb::Records rows = std::vector<wb::ScienceRow>{};
  run(
      state,
      [&](const std::string& in) {
        if (bind)
          decoder->decode(in, rows);
        else
          benchmark::DoNotOptimize(decoder->parse_only(in));
      },
      atom_payload());
}

// The json seam (the registry decoder's parse_only) on the same payload, in
// the same process and run as a library's own loop, so the two compare.
inline void json_seam(benchmark::State& state, const char* library) {
  auto decoder = wb::find_codec("json", wb::Role::decode, library)->make_decoder();
  run(state, [&](const std::string& in) { return decoder->parse_only(in); });
}

}  // namespace wb::standalone

// A library's standalone loop fn and the seam's parse-only of its decoder.
#define WB_STANDALONE_PAIR(fn, token)            \
  BENCHMARK_CAPTURE(json_seam, fn, token)        \
      ->Name("seam/" token "/json/science/8100") \
      ->Unit(benchmark::kMicrosecond);           \
  BENCHMARK(fn)->Name("standalone/" token "/json/science/8100")->Unit(benchmark::kMicrosecond);
