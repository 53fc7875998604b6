// What a benchmark prepares before its timed loop (codec objects, buffers, an
// input checked by a decode), kept between its entries. Google Benchmark
// enters a benchmark function several times: the runs that size the
// iteration count, then (in rounds, benchmarks/rounds.hpp) once per round,
// with the unit's other competitors in between; and the memory run.
//
// A prepared state is made once: by `make`, which warms the codec up with
// one call (a fresh decoder's first call first-touches its buffers, which on
// a large payload costs milliseconds) and, on the benchmark's first entry,
// checks its output. Rounds keep every state of a unit until the unit ends
// (keep_until_released), so a competitor is warmed up once per process, not
// once per round, while the heap stays within a quarter of the machine's
// memory (science/8100 keeps 4.6 GB: DOMs of an 8 MB document); beyond it, and
// outside rounds, one benchmark's state is kept at a time, which bounds
// memory when Google Benchmark's repetitions are interleaved.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

namespace wb::bench {

// One registered benchmark's check: whether its first entry ran it, and why
// it failed ("" = it passed). Its address identifies the benchmark.
struct Check {
  bool done = false;
  std::string failure;
};

class KeptStates {
 public:
  static KeptStates& instance();

  // true: every state is kept until release() (rounds, one unit at a time);
  // false: a state is dropped when another benchmark keeps one.
  void keep_until_released(bool on) { many_ = on; }
  // false: make() is never asked to check (a memory run: the timed run
  // checked the same code on the same payloads).
  void set_checking(bool on) { checking_ = on; }
  bool checking() const { return checking_; }
  void release() {
    states_.clear();
    last_ = {};
    over_budget_ = 0;
  }
  std::size_t size() const { return states_.size(); }
  // States kept beyond the budget, one at a time, since release() (rounds).
  std::size_t over_budget() const { return over_budget_; }

  template <class S>
  S* find(const Check& owner) {
    if (last_.first == &owner) return static_cast<S*>(last_.second.get());
    auto found = states_.find(&owner);
    return found == states_.end() ? nullptr : static_cast<S*>(found->second.get());
  }
  template <class S>
  S& keep(const Check& owner, std::unique_ptr<S> state) {
    S& kept = *state;
    if (many_ && !over_budget_now()) {
      states_[&owner] = std::shared_ptr<void>(std::move(state));
    } else {
      over_budget_ += many_;
      last_ = {&owner, std::shared_ptr<void>(std::move(state))};
    }
    return kept;
  }

 private:
  bool over_budget_now() const;

  bool many_ = false;
  bool checking_ = true;
  std::map<const Check*, std::shared_ptr<void>> states_;
  std::pair<const Check*, std::shared_ptr<void>> last_;  // the one state kept beyond them
  std::size_t over_budget_ = 0;
};

// Wall seconds spent making and checking states since the process started:
// the rounds report it apart from the timed loops (benchmarks/rounds.cpp).
double preparation_seconds();
void add_preparation_seconds(double seconds);

// The state of the benchmark `check` belongs to: the kept one, else a fresh
// S made by make(S&, bool verify), which returns "" or why the benchmark
// cannot be timed; verify is true on the benchmark's first entry, whose
// verdict stands for every later entry. nullptr after SkipWithError.
template <class S, class Make>
S* prepared(benchmark::State& state, Check& check, Make&& make) {
  KeptStates& kept = KeptStates::instance();
  if (S* found = kept.find<S>(check)) return found;
  if (!check.failure.empty()) {
    state.SkipWithError(check.failure.c_str());
    return nullptr;
  }
  const auto start = std::chrono::steady_clock::now();
  auto fresh = std::make_unique<S>();
  const std::string why = make(*fresh, !check.done && kept.checking());
  add_preparation_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!check.done) {
    check.done = true;
    check.failure = why;
  }
  if (!why.empty()) {
    state.SkipWithError(why.c_str());
    return nullptr;
  }
  return &kept.keep(check, std::move(fresh));
}

}  // namespace wb::bench
