// The run's size band: which cases this process registers, by the rows in
// their names. tools/commands/bench.sh runs the suite as one process per band so
// that each band gets a minimum time to suit its cases (a 10 µs decode and a
// 200 ms one want different ones) while Google Benchmark's names stay plain:
// a per-benchmark MinTime() would append "/min_time:…" to every name.
#pragma once

#include <climits>
#include <string>
#include <string_view>
#include <utility>

#include <benchmark/benchmark.h>

#include "benchmarks/roster.hpp"

namespace wb::bench {

struct RowsBand {
  int low = 0;
  int high = INT_MAX;  // inclusive
  bool contains(int rows) const { return rows >= low && rows <= high; }
};

// From "LOW-HIGH" or "LOW-" (no upper bound); false when the text is not one.
bool parse_rows_band(std::string_view text, RowsBand& band);
void set_rows_band(RowsBand band);
const RowsBand& rows_band();

// The rows of a case named {format}/{dataset}/{rows}/...; 0 for every other
// name (reference/…, the scaling families), which the band from 0 holds.
int rows_in_name(std::string_view name);

// RegisterBenchmark with the suite's unit, or nullptr when `rows` is outside
// the run's band; the benchmark joins the roster under `unit` (rounds).
template <class F>
benchmark::internal::Benchmark* register_for_rows(int rows, const std::string& name,
                                                  std::string unit, F&& body) {
  if (!rows_band().contains(rows)) return nullptr;
  return enrol(name, Body(std::forward<F>(body)), std::move(unit));
}

// The same for a name that holds its rows ({format}/{dataset}/{rows}/...).
template <class F>
benchmark::internal::Benchmark* register_in_band(const std::string& name, F&& body) {
  return register_for_rows(rows_in_name(name), name, unit_of(name), std::forward<F>(body));
}

}  // namespace wb::bench
