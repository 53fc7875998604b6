// The roster: every benchmark registered through register_in_band, with the
// payload it answers a question about, its unit of rounds (benchmarks/rounds.hpp).
// A unit is one dataset at one size, in every format: the competitors whose
// times the model and the page set side by side ("science/8100"). Each unit
// has one probe, the byte scan of its JSON payload, which every round of the
// unit times between its competitors.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

namespace wb::bench {

using Body = std::function<void(benchmark::State&)>;

// Rounds register each entrant again, alone, for each of its runs: Google
// Benchmark matches its filter against every registered benchmark on every
// call, which for a band of ~3,000 benchmarks costs more than the timing.
struct Entrant {
  std::string name;
  Body body;
  std::string unit;  // "" for a benchmark that no round runs (a family of several instances)
};

// "dataset/rows" of a name {format}/{dataset}/{rows}/...; "" for any other name.
std::string unit_of(std::string_view name);

// Registers `name` with Google Benchmark (in microseconds) and enrols it
// under `unit`; returns the family.
benchmark::internal::Benchmark* enrol(std::string name, Body body, std::string unit);
// The family of one entrant, registered again (rounds).
benchmark::internal::Benchmark* register_entrant(const Entrant& entrant);
const std::vector<Entrant>& roster();

// The probe of a unit: the benchmark whose time each round's competitors are
// divided by; "" when the unit has none.
void set_unit_probe(const std::string& unit, const std::string& name);
std::string unit_probe(const std::string& unit);

}  // namespace wb::bench
