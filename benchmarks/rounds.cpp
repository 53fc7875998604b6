#include "benchmarks/rounds.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <utility>
#include <vector>

#include <malloc.h>

#include <benchmark/benchmark.h>

#include "benchmarks/kept.hpp"
#include "benchmarks/race.hpp"
#include "benchmarks/roster.hpp"

namespace wb::bench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;

// Later rounds run each competitor for about this many times the minimum
// time (rounds.hpp).
constexpr double kRoundTarget = 1.1;

// Keeps what Google Benchmark reports, prints nothing: the rounds print
// their own lines.
class Collector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    runs_.insert(runs_.end(), runs.begin(), runs.end());
  }
  std::vector<Run> take() { return std::exchange(runs_, {}); }

 private:
  std::vector<Run> runs_;
};

// A regex (POSIX extended, as Google Benchmark 1.7.1 compiles it) matching
// exactly this name, with or without the /iterations:N that later rounds add.
std::string exact_spec(const std::string& name) {
  std::string spec = "^";
  for (char c : name) {
    if (std::string_view(".[]{}()\\*+?^$|").find(c) != std::string_view::npos) spec += '\\';
    spec += c;
  }
  return spec + "(/iterations:[0-9]+)?$";
}

struct Competitor {
  Competitor(const Entrant* e, bool is_probe) : entrant(e), probe(is_probe) {}
  const Entrant* entrant;
  bool probe = false;
  bool failed = false;
  int settled_after = 0;                     // rounds it ran before it was settled; 0 = not settled
  benchmark::IterationCount iterations = 0;  // 0 until the first round sizes it
  std::vector<double> cpu;                   // per iteration, in the run's time unit
  std::string unit_name;                     // "us"
  std::vector<std::size_t> runs;             // its entries in Rounds::runs_
  int slot = -1;                             // in the current round; -1: did not run
};

// Where a process's rounds spend their wall time (the timed loops are what a
// result reports; the rest is what racing and keeping states cut).
struct Split {
  double timed = 0;        // the timed loops of the kept runs
  double preparation = 0;  // making, warming up and checking states (kept.hpp)
  double sizing = 0;       // first rounds' runs that find the iteration count
  double other = 0;        // registering, matching, reporting
  double total() const { return timed + preparation + sizing + other; }
};

struct Unit {
  std::string name;
  std::vector<Competitor> competitors;
  std::optional<Competitor> probe;
};

// The units holding a benchmark the filter matches, in the roster's order.
std::vector<Unit> units_of(const std::string& filter) {
  const std::regex matches(filter.empty() || filter == "all" ? "." : filter, std::regex::extended);
  std::vector<Unit> units;
  std::map<std::string, std::size_t> index;
  for (const Entrant& e : roster()) {
    if (e.unit.empty() || !std::regex_search(e.name, matches)) continue;
    if (e.name == unit_probe(e.unit)) continue;  // the probe runs anyway
    auto [at, fresh] = index.try_emplace(e.unit, units.size());
    if (fresh) units.push_back(Unit{e.unit, {}, std::nullopt});
    units[at->second].competitors.push_back(Competitor(&e, false));
  }
  for (Unit& u : units) {
    const std::string probe = unit_probe(u.name);
    for (const Entrant& e : roster())
      if (!probe.empty() && e.name == probe) u.probe = Competitor(&e, true);
  }
  return units;
}

class Rounds {
 public:
  Rounds(const RoundsOptions& options, std::size_t units)
      : options_(options), order_(options.order_seed), units_(units) {}

  std::size_t run(std::vector<Unit>& units) {
    std::size_t ran = 0;
    // Every state of a unit is kept until the unit ends: one warm-up per
    // competitor per process (benchmarks/kept.hpp).
    KeptStates::instance().keep_until_released(options_.keep_states);
    started_ = std::chrono::steady_clock::now();
    for (Unit& unit : units) {
      run_unit(unit);
      ran += unit.competitors.size() + (unit.probe ? 1 : 0);
      ++units_done_;
    }
    return ran;
  }

  std::vector<Run>& runs() { return runs_; }
  const Split& split() const { return split_; }
  std::size_t settled() const { return settled_; }
  std::size_t competitor_rounds() const { return competitor_rounds_; }

 private:
  void run_unit(Unit& unit) {
    const auto start = std::chrono::steady_clock::now();
    std::printf("unit %s: %zu competitors%s%s, %d rounds\n", unit.name.c_str(),
                unit.competitors.size(), unit.probe ? ", probe " : "",
                unit.probe ? unit.probe->entrant->name.c_str() : "", options_.rounds);
    std::fflush(stdout);
    std::vector<std::string> names;
    for (const Competitor& c : unit.competitors) names.push_back(c.entrant->name);
    Race race(options_.race, names);
    for (int round = 0; round < options_.rounds; ++round) {
      std::vector<Competitor*> order;
      for (Competitor& c : unit.competitors) {
        c.slot = -1;
        if (!c.failed && !c.settled_after) order.push_back(&c);
      }
      std::shuffle(order.begin(), order.end(), order_);
      probe_slots_.clear();
      int slot = 0;
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (unit.probe && i % options_.probe_every == 0) time_one(*unit.probe, round, slot++);
        time_one(*order[i], round, slot++);
      }
      if (unit.probe) time_one(*unit.probe, round, slot++);
      ++round_id_;
      competitor_rounds_ += order.size();
      record_round(unit, race, round);
      settle(unit, race, round + 1);
      progress(unit, order.size(), round + 1);
    }
    for (const Competitor& c : unit.competitors) print_median(c);
    if (unit.probe) print_median(*unit.probe);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The heap in use with every state of the unit kept, before they go.
    const struct mallinfo2 heap = ::mallinfo2();
    std::printf(
        "unit %s: done in %.1f s (%zu states kept, heap %.0f MB, %zu made again over "
        "the memory budget)\n",
        unit.name.c_str(), seconds, KeptStates::instance().size(),
        static_cast<double>(heap.uordblks + heap.hblkhd) / 1e6,
        KeptStates::instance().over_budget());
    std::fflush(stdout);
    KeptStates::instance().release();
  }

  // Each competitor's time in this round over the probe beside it: the
  // geometric mean of the nearest probe before and after it (the one at an
  // end of the round), as tools/wbtools/results/paired.py pairs them.
  void record_round(const Unit& unit, Race& race, int round) {
    for (std::size_t i = 0; i < unit.competitors.size(); ++i) {
      const Competitor& c = unit.competitors[i];
      if (c.failed) race.drop(i);
      if (c.failed || c.slot < 0 || c.cpu.empty()) continue;
      double log_sum = 0;
      int near = 0;
      const auto after =
          std::upper_bound(probe_slots_.begin(), probe_slots_.end(), std::make_pair(c.slot, 0.0),
                           [](const auto& a, const auto& b) { return a.first < b.first; });
      if (after != probe_slots_.end()) log_sum += std::log(after->second), ++near;
      if (after != probe_slots_.begin()) log_sum += std::log(std::prev(after)->second), ++near;
      const double probe = near ? std::exp(log_sum / near) : 1.0;
      race.record(i, round, c.cpu.back() / probe);
      const Run& first = runs_[c.runs.front()];
      if (auto digest = first.counters.find("wire_digest"); digest != first.counters.end())
        race.set_digest(i, digest->second.value);
    }
  }

  void settle(Unit& unit, Race& race, int rounds_done) {
    for (const Race::Settled& s : race.settle(rounds_done)) {
      Competitor& c = unit.competitors[s.index];
      c.settled_after = rounds_done;
      ++settled_;
      for (std::size_t at : c.runs) {
        runs_[at].counters["settled_after"] = rounds_done;
        runs_[at].report_label = "settled_by: " + s.why;
      }
    }
  }

  // One line a round: where the band's process is and, from the rounds timed
  // so far, how long what is left of it takes (tools/commands/bench.sh shows it).
  void progress(const Unit& unit, std::size_t active, int rounds_done) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    std::size_t settled_here = 0;
    for (const Competitor& c : unit.competitors) settled_here += c.settled_after > 0;
    // What is left: this unit's active competitors for its remaining rounds,
    // then every later unit's competitors for every round, at the cost of a
    // competitor's round so far in this process (racing can only shorten it).
    const double per_round = competitor_rounds_ ? elapsed / competitor_rounds_ : 0;
    double left = per_round * static_cast<double>(active) * (options_.rounds - rounds_done);
    for (std::size_t u = units_done_ + 1; u < units_sizes_.size(); ++u)
      left += per_round * static_cast<double>(units_sizes_[u]) * options_.rounds;
    std::printf(
        "progress: unit %zu/%zu (%s), round %d/%d: %zu competitors ran, %zu settled; %.0f s "
        "elapsed, about %.0f s left in this process\n",
        units_done_ + 1, units_, unit.name.c_str(), rounds_done, options_.rounds, active,
        settled_here, elapsed, left);
    std::fflush(stdout);
  }

 public:
  void set_unit_sizes(std::vector<std::size_t> sizes) { units_sizes_ = std::move(sizes); }

 private:
  void time_one(Competitor& c, int round, int slot) {
    if (c.failed) return;
    const auto start = std::chrono::steady_clock::now();
    const double prepared_before = preparation_seconds();
    auto* family = register_entrant(*c.entrant);
    if (c.iterations > 0) family->Iterations(c.iterations);
    const bool sizing = c.iterations == 0;
    benchmark::RunSpecifiedBenchmarks(&collector_, exact_spec(c.entrant->name));
    benchmark::ClearRegisteredBenchmarks();
    double timed = 0;
    for (Run& run : collector_.take()) {
      // The name as registered: later rounds' /iterations:N is ours, not the benchmark's.
      run.run_name.iterations.clear();
      run.repetition_index = round;
      run.counters["round"] = round;
      run.counters["round_id"] = static_cast<double>(round_id_);
      run.counters["round_slot"] = slot;
      run.counters["paired_reference"] = c.probe ? 1 : 0;
      if (run.error_occurred) {
        c.failed = true;
      } else {
        if (c.iterations == 0) c.iterations = later_iterations(run);
        c.cpu.push_back(run.GetAdjustedCPUTime());
        c.unit_name = benchmark::GetTimeUnitString(run.time_unit);
        c.slot = slot;
        if (c.probe) probe_slots_.emplace_back(slot, c.cpu.back());
        timed += run.real_accumulated_time;
      }
      c.runs.push_back(runs_.size());
      runs_.push_back(std::move(run));
    }
    const double prepared = preparation_seconds() - prepared_before;
    const double rest =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - timed -
        prepared;
    split_.timed += timed;
    split_.preparation += prepared;
    (sizing ? split_.sizing : split_.other) += std::max(0.0, rest);
  }

  // The iterations of a competitor's later rounds, from its sized run:
  // kRoundTarget x the minimum time by that run's CPU time, never more than
  // the sizing chose, at least one.
  benchmark::IterationCount later_iterations(const Run& sized) const {
    const double cpu = sized.cpu_accumulated_time;
    if (options_.min_time <= 0 || cpu <= 0) return sized.iterations;
    const double wanted =
        kRoundTarget * options_.min_time / cpu * static_cast<double>(sized.iterations);
    return std::clamp<benchmark::IterationCount>(
        static_cast<benchmark::IterationCount>(std::ceil(wanted)), 1, sized.iterations);
  }

  // One line per benchmark, as Google Benchmark's console prints a median:
  // tools/commands/bench.sh counts and shows them.
  static void print_median(const Competitor& c) {
    if (c.failed) {
      std::printf("%s ERROR OCCURRED\n", c.entrant->name.c_str());
    } else if (!c.cpu.empty()) {
      std::vector<double> sorted = c.cpu;
      std::sort(sorted.begin(), sorted.end());
      const std::size_t n = sorted.size();
      const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      std::printf("%s_median %12.3f %s %zu rounds%s\n", c.entrant->name.c_str(), median,
                  c.unit_name.c_str(), n, c.settled_after ? " (settled)" : "");
    }
    std::fflush(stdout);
  }

  RoundsOptions options_;
  std::mt19937_64 order_;
  Collector collector_;
  std::vector<Run> runs_;
  long round_id_ = 0;
  std::vector<std::pair<int, double>> probe_slots_;  // this round's probes: (slot, cpu)
  Split split_;
  std::size_t settled_ = 0, competitor_rounds_ = 0;
  std::size_t units_ = 0, units_done_ = 0;
  std::vector<std::size_t> units_sizes_;
  std::chrono::steady_clock::time_point started_;
};

bool write_json(const std::string& path, std::vector<Run>& runs) {
  // Each benchmark's repetitions are its rounds (a probe: its runs).
  std::map<std::string, int64_t> count;
  for (const Run& run : runs) ++count[run.benchmark_name()];
  std::map<std::string, int64_t> seen;
  for (Run& run : runs) {
    const std::string name = run.benchmark_name();
    run.repetitions = count[name];
    if (run.counters["paired_reference"].value > 0) run.repetition_index = seen[name]++;
  }
  std::ofstream out(path);
  if (!out) return false;
  benchmark::JSONReporter json;
  json.SetOutputStream(&out);
  json.SetErrorStream(&out);
  benchmark::BenchmarkReporter::Context context;
  context.name_field_width = 10;
  json.ReportContext(context);
  json.ReportRuns(runs);
  json.Finalize();
  return static_cast<bool>(out);
}

}  // namespace

std::size_t run_rounds(const RoundsOptions& options) {
  std::vector<Unit> units;
  try {
    units = units_of(options.filter);
  } catch (const std::regex_error&) {
    std::fprintf(stderr, "Could not compile benchmark re: %s\n", options.filter.c_str());
    return 0;
  }
  if (units.empty()) {
    std::fprintf(stderr, "Failed to match any benchmarks against regex: %s\n",
                 options.filter.c_str());
    return 0;
  }
  // Google Benchmark dates the context when it writes it, which the rounds do at the end.
  char started[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%S+00:00", std::gmtime(&now));
  benchmark::AddCustomContext("rounds_started", started);
  benchmark::AddCustomContext("run_design", "rounds");
  benchmark::AddCustomContext("rounds", std::to_string(options.rounds));
  benchmark::AddCustomContext("round_order_seed", std::to_string(options.order_seed));
  benchmark::AddCustomContext("round_probe_every", std::to_string(options.probe_every));
  benchmark::AddCustomContext("racing", options.race.describe());
  // Google Benchmark's header (machine, load, context) as its console prints it.
  benchmark::BenchmarkReporter::PrintBasicContext(&std::cout,
                                                  benchmark::BenchmarkReporter::Context());
  std::cout << std::flush;
  std::printf("%s\n", std::string(72, '-').c_str());
  // From here each competitor is registered alone for each of its runs.
  benchmark::ClearRegisteredBenchmarks();
  Rounds rounds(options, units.size());
  std::vector<std::size_t> sizes;
  for (const Unit& u : units) sizes.push_back(u.competitors.size());
  rounds.set_unit_sizes(std::move(sizes));
  const std::size_t ran = rounds.run(units);
  // Where the wall time went, into the context and on screen.
  const Split& split = rounds.split();
  char line[256];
  std::snprintf(line, sizeof line,
                "%.1f s: timed loops %.1f s, preparation (warm-ups, checks) %.1f s, sizing "
                "%.1f s, other %.1f s; %zu competitor-rounds, %zu competitors settled",
                split.total(), split.timed, split.preparation, split.sizing, split.other,
                rounds.competitor_rounds(), rounds.settled());
  benchmark::AddCustomContext("rounds_split", line);
  std::printf("rounds: %s\n", line);
  std::fflush(stdout);
  if (!options.out_path.empty() && !write_json(options.out_path, rounds.runs())) {
    std::fprintf(stderr, "cannot write %s\n", options.out_path.c_str());
    return 0;
  }
  return ran;
}

}  // namespace wb::bench
