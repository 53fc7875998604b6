#include "benchmarks/rounds.hpp"

#include <algorithm>
#include <chrono>
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

#include <benchmark/benchmark.h>

#include "benchmarks/roster.hpp"

namespace wb::bench {
namespace {

using Run = benchmark::BenchmarkReporter::Run;

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
  benchmark::IterationCount iterations = 0;  // 0 until the first round sizes it
  std::vector<double> cpu;                   // per iteration, in the run's time unit
  std::string unit_name;                     // "us"
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
  explicit Rounds(const RoundsOptions& options) : options_(options), order_(options.order_seed) {}

  std::size_t run(std::vector<Unit>& units) {
    std::size_t ran = 0;
    for (Unit& unit : units) {
      run_unit(unit);
      ran += unit.competitors.size() + (unit.probe ? 1 : 0);
    }
    return ran;
  }

  std::vector<Run>& runs() { return runs_; }

 private:
  void run_unit(Unit& unit) {
    const auto start = std::chrono::steady_clock::now();
    std::printf("unit %s: %zu competitors%s%s, %d rounds\n", unit.name.c_str(),
                unit.competitors.size(), unit.probe ? ", probe " : "",
                unit.probe ? unit.probe->entrant->name.c_str() : "", options_.rounds);
    std::fflush(stdout);
    for (int round = 0; round < options_.rounds; ++round) {
      std::vector<Competitor*> order;
      for (Competitor& c : unit.competitors)
        if (!c.failed) order.push_back(&c);
      std::shuffle(order.begin(), order.end(), order_);
      int slot = 0;
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (unit.probe && i % options_.probe_every == 0) time_one(*unit.probe, round, slot++);
        time_one(*order[i], round, slot++);
      }
      if (unit.probe) time_one(*unit.probe, round, slot++);
      ++round_id_;
    }
    for (const Competitor& c : unit.competitors) print_median(c);
    if (unit.probe) print_median(*unit.probe);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("unit %s: done in %.1f s\n", unit.name.c_str(), seconds);
    std::fflush(stdout);
  }

  void time_one(Competitor& c, int round, int slot) {
    if (c.failed) return;
    auto* family = register_entrant(*c.entrant);
    if (c.iterations > 0) family->Iterations(c.iterations);
    benchmark::RunSpecifiedBenchmarks(&collector_, exact_spec(c.entrant->name));
    benchmark::ClearRegisteredBenchmarks();
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
        if (c.iterations == 0) c.iterations = run.iterations;
        c.cpu.push_back(run.GetAdjustedCPUTime());
        c.unit_name = benchmark::GetTimeUnitString(run.time_unit);
      }
      runs_.push_back(std::move(run));
    }
  }

  // One line per benchmark, as Google Benchmark's console prints a median:
  // tools/run_bench.sh counts and shows them.
  static void print_median(const Competitor& c) {
    if (c.failed) {
      std::printf("%s ERROR OCCURRED\n", c.entrant->name.c_str());
    } else if (!c.cpu.empty()) {
      std::vector<double> sorted = c.cpu;
      std::sort(sorted.begin(), sorted.end());
      const std::size_t n = sorted.size();
      const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      std::printf("%s_median %12.3f %s %zu rounds\n", c.entrant->name.c_str(), median,
                  c.unit_name.c_str(), n);
    }
    std::fflush(stdout);
  }

  RoundsOptions options_;
  std::mt19937_64 order_;
  Collector collector_;
  std::vector<Run> runs_;
  long round_id_ = 0;
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
  // Google Benchmark's header (machine, load, context) as its console prints it.
  benchmark::BenchmarkReporter::PrintBasicContext(&std::cout,
                                                  benchmark::BenchmarkReporter::Context());
  std::cout << std::flush;
  std::printf("%s\n", std::string(72, '-').c_str());
  // From here each competitor is registered alone for each of its runs.
  benchmark::ClearRegisteredBenchmarks();
  Rounds rounds(options);
  const std::size_t ran = rounds.run(units);
  if (!options.out_path.empty() && !write_json(options.out_path, rounds.runs())) {
    std::fprintf(stderr, "cannot write %s\n", options.out_path.c_str());
    return 0;
  }
  return ran;
}

}  // namespace wb::bench
