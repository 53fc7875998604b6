// Rounds: the competitors of one unit (a dataset at one size, in every
// format; benchmarks/roster.hpp) timed side by side. A shared virtual machine
// runs 1.5-1.9x slower in windows from under a second to minutes; a run that
// times each benchmark's repetitions at different moments compares those
// moments as much as the codecs. Here one round runs every competitor of a
// unit once, back to back, in a fresh random order, with the unit's probe
// (the byte scan of its JSON payload) between every few of them; the rounds
// repeat. A slow window then moves the competitors of one round and the
// probes beside them together, and the per-round ratio to the probe
// (tools/wbtools/results/paired.py) cancels it.
//
// Google Benchmark stays the timer: each competitor of a round is one
// RunSpecifiedBenchmarks call over its exact name, with the competitor the
// only benchmark registered (Google Benchmark builds and matches every
// registered benchmark on each call: over a band of ~3,000 that took three
// times as long as the timing). The first round sizes the
// iterations by the minimum time, as Google Benchmark always does; later
// rounds run a fixed number of iterations, so no round pays for sizing:
// those that take kRoundTarget x the minimum time by the sized run's CPU
// time. Google Benchmark's sizing aims at 1.4 x the minimum time (its
// PredictNumItersNeeded), so a round of fast competitors spent 40 % more
// than the minimum the band asked for.
// The result is Google Benchmark's JSON, one iteration entry per competitor
// and round, with these counters:
//   round             the round of the unit, 0.. (also repetition_index)
//   round_id          the round in the whole process, for pairing entries
//   round_slot        the position in the round's sequence, probes included
//   paired_reference  1 on the unit's probe, 0 on a competitor
#pragma once

#include <cstdint>
#include <string>

#include "benchmarks/race.hpp"

namespace wb::bench {

struct RoundsOptions {
  int rounds = 6;
  std::uint64_t order_seed = 0;  // of the rounds' random orders
  int probe_every = 8;           // competitors between two probes
  std::string filter;            // --benchmark_filter ("" or "all": every benchmark)
  std::string out_path;          // Google Benchmark JSON, written at the end
  RaceRule race;                 // who stops taking rounds (benchmarks/race.hpp)
  // --benchmark_min_time: rounds after the first run each competitor for
  // about this much CPU (0: the iterations Google Benchmark's sizing found).
  double min_time = 0;
  // true: a competitor's state (kept.hpp) lasts its unit, one warm-up per
  // process; false: remade and warmed up in every round (to measure that).
  bool keep_states = true;
};

// Runs every unit of the roster that holds a benchmark matching the filter,
// in rounds, and writes the result. Returns how many benchmarks ran (0 when
// none matched; the output then says so).
std::size_t run_rounds(const RoundsOptions& options);

}  // namespace wb::bench
