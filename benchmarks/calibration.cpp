// The machine's speed, timed in every band beside the cases: two fixed
// workloads that no change to wirebench alters. A shared VM runs for
// stretches of seconds to a whole run about 1.65x slower, and neither busy
// nor steal time shows it (docs/methodology.md, "Noise"); two result files
// made at different times then compare the machine as much as the code.
// `wirebench compare` sets these probes side by side first and says when the
// machine's speed differed (wbtools/compare/__init__.py). The slow stretches hardly
// move the compute chain; the scan moves with the cases, by less than they
// do, which is enough to tell a slow run (docs/methodology.md, "Comparing
// runs").
//   calibration/{band}/compute  a dependent chain of integer multiplies and
//                               shifts in registers: the core's clock
//   calibration/{band}/scan     a branchy byte-by-byte tokenizer over 256 KiB
//                               of JSON-like bytes (L2-resident): loads,
//                               branches and mispredictions, as a parser has,
//                               and what a core sharing its caches and ports
//                               with another takes away
//   calibration/{band}/memory   memcpy of 8 MiB (beyond L2): the memory
//                               path the 8,100-row payloads take
// {band} is the process's rows band ("all" without one), so each band's
// probes are their own benchmarks.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/measure.hpp"
#include "benchmarks/roster.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {
namespace {

constexpr int kChainSteps = 1 << 16;
constexpr std::size_t kCopyBytes = std::size_t{8} << 20;

void compute(benchmark::State& state) {
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  timed_loop(state, [&] {
    for (int i = 0; i < kChainSteps; ++i) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      x ^= x >> 29;
    }
    benchmark::DoNotOptimize(x);
  });
  state.SetItemsProcessed(state.iterations() * kChainSteps);
}

constexpr std::size_t kScanBytes = std::size_t{256} << 10;

// Deterministic JSON-like text: structure, strings, digits and letters in the
// proportions of a payload, in an order no predictor learns.
std::vector<char> scan_input() {
  static constexpr char kAlphabet[] = "{}[]\",:0123456789abcdefghij.- ";
  std::vector<char> bytes(kScanBytes);
  std::uint64_t x = 42;
  for (char& c : bytes) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    c = kAlphabet[(x >> 33) % (sizeof kAlphabet - 1)];
  }
  return bytes;
}

void scan(benchmark::State& state) {
  const std::vector<char> in = scan_input();
  timed_loop(state, [&] {
    std::uint64_t depth = 0, strings = 0, number = 0, other = 0;
    for (char c : in) {
      switch (c) {
        case '{':
        case '[':
          ++depth;
          break;
        case '}':
        case ']':
          --depth;
          break;
        case '"':
          ++strings;
          break;
        case ',':
        case ':':
          number = 0;
          break;
        default:
          if (c >= '0' && c <= '9')
            number = number * 10 + static_cast<std::uint64_t>(c - '0');
          else
            ++other;
      }
    }
    benchmark::DoNotOptimize(depth + strings + number + other);
  });
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kScanBytes));
}

void memory(benchmark::State& state) {
  std::vector<char> in(kCopyBytes, 'x'), out(kCopyBytes, '\0');
  timed_loop(state, [&] {
    std::memcpy(out.data(), in.data(), in.size());
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kCopyBytes));
}

}  // namespace

void register_calibration_benchmarks(const std::string& band) {
  const std::string prefix = "calibration/" + (band.empty() ? std::string("all") : band) + "/";
  // In rounds (benchmarks/rounds.hpp) the three probes are a unit of their own.
  auto add = [&](const char* name, void (*body)(benchmark::State&)) {
    const std::string full = prefix + name;
    enrol(full, body, "calibration");
  };
  add("compute", compute);
  add("scan", scan);
  add("memory", memory);
}

}  // namespace wb::bench
