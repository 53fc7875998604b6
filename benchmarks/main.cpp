// wirebench_bench: every benchmark comes from the registry. Besides Google
// Benchmark's flags it takes --wirebench_seed=N (also env WIREBENCH_SEED),
// --wirebench_threads (register only the concurrent-client benchmarks, for an
// unpinned run of their own), --wirebench_scaling (add the Complexity(oN)
// families over the message sizes; ~10 % more benchmarks, so opt-in) and
// --wirebench_full (decode from every serializer at every size, not only at
// each dataset's field size; see register.hpp),
// --wirebench_cold_cache (add decode-cold-cache: inputs in no CPU cache),
// --wirebench_icount (no memory run; callgrind
// collects inside the timed loops only, see tools/commands/icount.py) and
// --wirebench_rows=LOW-HIGH (register only cases of LOW to HIGH rows; see band.hpp),
// --wirebench_rounds=N (time each unit's competitors side by side in N rounds,
// benchmarks/rounds.hpp; --benchmark_out then names the file the rounds write),
// --wirebench_round_seed=N (the rounds' random orders),
// --wirebench_probe_every=N (competitors between two probes in a round),
// --wirebench_no_race (every competitor runs every round; default: racing,
// benchmarks/race.hpp), --wirebench_race_margin=W and --wirebench_race_after=N
// (the racing rule's margin and first block of rounds) and
// --wirebench_memory_run (the memory executable's run: no checks, empty
// loops before each memory run; loop_probe.hpp), --wirebench_warm_up_each_round (states remade in
// every round, as a measurement of what keeping them saves) and
// --wirebench_payload=KIND:PATH, repeatable (time a user's files instead of
// the suite's cases; benchmarks/payload_files.hpp),
// --wirebench_payload_crashed=LIBRARY:PATH (a parser not to run on a file),
// --wirebench_as_formats (each feed's rows in every other format too;
// benchmarks/as_formats.hpp) and
// --wirebench_scope (print the run_scope the other arguments make, whole or
// focused, and exit; benchmarks/scope.hpp).
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/loop_probe.hpp"
#include "benchmarks/measure.hpp"
#include "benchmarks/payload_files.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/rounds.hpp"
#include "benchmarks/scope.hpp"

namespace {

std::optional<uint64_t> parse_seed(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// A positive count from the text after flag, or 0 (and a message) when it is not one.
int parse_count(std::string_view flag, std::string_view text) {
  auto value = parse_seed(text);
  if (!value || *value == 0 || *value > 1000000) {
    std::fprintf(stderr, "wirebench_bench: %.*s wants a positive number, got '%.*s'\n",
                 static_cast<int>(flag.size()), flag.data(), static_cast<int>(text.size()),
                 text.data());
    return 0;
  }
  return static_cast<int>(*value);
}

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kSeedFlag = "--wirebench_seed=";
  constexpr std::string_view kRowsFlag = "--wirebench_rows=";
  std::string_view rows_text;
  std::string_view seed_text;
  if (const char* env = std::getenv("WIREBENCH_SEED"); env && *env) seed_text = env;
  // Our flag is taken out before Google Benchmark sees (and rejects) it.
  bool threads = false;
  bool scaling = false;
  bool full = false;
  bool cold_cache = false;
  bool print_scope = false;
  wb::bench::RoundsOptions rounds;
  rounds.rounds = 0;  // 0: Google Benchmark's own repetitions
  std::optional<uint64_t> round_seed;
  std::vector<char*> args;
  constexpr std::string_view kRoundsFlag = "--wirebench_rounds=";
  constexpr std::string_view kRoundSeedFlag = "--wirebench_round_seed=";
  constexpr std::string_view kProbeFlag = "--wirebench_probe_every=";
  constexpr std::string_view kOutFlag = "--benchmark_out=";
  constexpr std::string_view kMarginFlag = "--wirebench_race_margin=";
  constexpr std::string_view kAfterFlag = "--wirebench_race_after=";
  constexpr std::string_view kPayloadFlag = "--wirebench_payload=";
  std::vector<wb::bench::PayloadSpec> payloads;
  constexpr std::string_view kCrashedFlag = "--wirebench_payload_crashed=";
  std::set<std::string> crashed;
  bool as_formats = false;
  std::string_view out_path;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (i > 0 && arg.starts_with(kSeedFlag))
      seed_text = arg.substr(kSeedFlag.size());
    else if (i > 0 && arg.starts_with(kRowsFlag))
      rows_text = arg.substr(kRowsFlag.size());
    else if (i > 0 && arg == "--wirebench_threads")
      threads = true;
    else if (i > 0 && arg == "--wirebench_scaling")
      scaling = true;
    else if (i > 0 && arg == "--wirebench_full")
      full = true;
    else if (i > 0 && arg == "--wirebench_cold_cache")
      cold_cache = true;
    else if (i > 0 && arg.starts_with(kRoundsFlag)) {
      if ((rounds.rounds = parse_count(kRoundsFlag, arg.substr(kRoundsFlag.size()))) == 0) return 2;
    } else if (i > 0 && arg.starts_with(kRoundSeedFlag)) {
      if (!(round_seed = parse_seed(arg.substr(kRoundSeedFlag.size())))) {
        std::fprintf(stderr, "wirebench_bench: invalid round seed '%s'\n", argv[i]);
        return 2;
      }
    } else if (i > 0 && arg.starts_with(kProbeFlag)) {
      if ((rounds.probe_every = parse_count(kProbeFlag, arg.substr(kProbeFlag.size()))) == 0)
        return 2;
    } else if (i > 0 && arg == "--wirebench_warm_up_each_round") {
      rounds.keep_states = false;
    } else if (i > 0 && arg == "--wirebench_no_race") {
      rounds.race.on = false;
    } else if (i > 0 && arg.starts_with(kAfterFlag)) {
      if ((rounds.race.first_block = parse_count(kAfterFlag, arg.substr(kAfterFlag.size()))) == 0)
        return 2;
    } else if (i > 0 && arg.starts_with(kMarginFlag)) {
      const std::string text(arg.substr(kMarginFlag.size()));
      char* end = nullptr;
      rounds.race.margin = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(rounds.race.margin > 0)) {
        std::fprintf(stderr, "wirebench_bench: %s wants a positive number\n", argv[i]);
        return 2;
      }
    } else if (i > 0 && arg.starts_with("--benchmark_min_time=")) {
      // Google Benchmark's too; the rounds size later rounds by it.
      rounds.min_time =
          std::strtod(argv[i] + std::string_view("--benchmark_min_time=").size(), nullptr);
      args.push_back(argv[i]);
    } else if (i > 0 && arg.starts_with(kOutFlag)) {
      out_path = arg.substr(kOutFlag.size());
      args.push_back(argv[i]);
    } else if (i > 0 && arg.starts_with(kPayloadFlag)) {
      std::string why;
      if (!wb::bench::parse_payload_spec(arg.substr(kPayloadFlag.size()), payloads.emplace_back(),
                                         why)) {
        std::fprintf(stderr, "wirebench_bench: %s: %s\n", argv[i], why.c_str());
        return 2;
      }
    } else if (i > 0 && arg.starts_with(kCrashedFlag)) {
      crashed.insert(std::string(arg.substr(kCrashedFlag.size())));
    } else if (i > 0 && arg == "--wirebench_as_formats") {
      as_formats = true;
    } else if (i > 0 && arg == "--wirebench_icount") {
      wb::bench::probe::callgrind = true;
    } else if (i > 0 && arg == "--wirebench_scope") {
      print_scope = true;
    } else if (i > 0 && arg == "--wirebench_memory_run") {
      wb::bench::probe::memory_only = true;
      wb::bench::KeptStates::instance().set_checking(false);
    } else {
      args.push_back(argv[i]);
    }
  }
  if (!seed_text.empty()) {
    auto seed = parse_seed(seed_text);
    if (!seed) {
      std::fprintf(stderr, "wirebench_bench: invalid seed '%.*s' (want an unsigned integer)\n",
                   static_cast<int>(seed_text.size()), seed_text.data());
      return 2;
    }
    wb::bench::set_seed(*seed);
  }
  if (!rows_text.empty()) {
    wb::bench::RowsBand band;
    if (!wb::bench::parse_rows_band(rows_text, band)) {
      std::fprintf(stderr, "wirebench_bench: invalid rows band '%.*s' (want LOW-HIGH or LOW-)\n",
                   static_cast<int>(rows_text.size()), rows_text.data());
      return 2;
    }
    wb::bench::set_rows_band(band);
    benchmark::AddCustomContext("rows_band", std::string(rows_text));
  }
  const wb::bench::RunScope scope =
      wb::bench::run_scope(std::span<char* const>(args).subspan(1), threads,
                           wb::bench::probe::callgrind, !payloads.empty());
  if (print_scope) {
    const std::string_view name = wb::bench::scope_name(scope);
    std::printf("%.*s\n", static_cast<int>(name.size()), name.data());
    return 0;
  }
  // A listing lists: the rounds run nothing then.
  for (char* a : args) {
    const std::string_view arg = a;
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" ||
        arg == "--benchmark_list_tests=1")
      rounds.rounds = 0;
  }
  if (rounds.rounds > 0) {
    // The rounds write the file themselves, once (Google Benchmark would
    // rewrite it on every call), and each call runs one repetition.
    std::erase_if(args,
                  [](char* a) { return std::string_view(a).starts_with("--benchmark_out="); });
    for (char* a : args)
      if (std::string_view(a).starts_with("--benchmark_repetitions=")) {
        std::fprintf(stderr,
                     "wirebench_bench: with --wirebench_rounds a round is a repetition: "
                     "leave out --benchmark_repetitions\n");
        return 2;
      }
    rounds.out_path = std::string(out_path);
    rounds.order_seed = round_seed ? *round_seed : std::random_device{}();
  }
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);

  if (as_formats && payloads.empty()) {
    std::fprintf(stderr, "wirebench_bench: --wirebench_as_formats goes with --wirebench_payload\n");
    return 2;
  }
  for (wb::bench::PayloadSpec& spec : payloads) spec.as_formats = as_formats;
  if (!payloads.empty()) {
    // A user's files stand in for the datasets: none of the suite's cases run.
    if (const std::string why = wb::bench::register_payload_benchmarks(payloads, crashed);
        !why.empty()) {
      std::fprintf(stderr, "wirebench_bench: %s\n", why.c_str());
      return 2;
    }
  } else if (threads) {
    wb::bench::register_thread_benchmarks();
  } else {
    wb::bench::register_codec_benchmarks(full);
    wb::bench::register_new_parser_benchmarks();
    if (scaling) wb::bench::register_scaling_benchmarks();
    if (cold_cache) wb::bench::register_cold_cache_benchmarks();
    wb::bench::register_reference_benchmarks();
    wb::bench::register_calibration_benchmarks(std::string(rows_text));
  }
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  wb::bench::add_run_context();
  // What the run holds: results/README.md tells a focused run from the whole suite by it.
  benchmark::AddCustomContext("benchmark_filter", benchmark::GetBenchmarkFilter());
  // Allocation counts come from an extra run per benchmark (after timing);
  // thread runs and callgrind runs leave it out (one thread; no extra loops).
  const bool memory =
      !threads && !wb::bench::probe::callgrind && wb::bench::install_memory_manager();
  benchmark::AddCustomContext("run_scope", std::string(wb::bench::scope_name(scope)));
  // The kind of measurement: "default" is the suite's own, pinned and timed,
  // of the whole suite; a focused run of it says so.
  benchmark::AddCustomContext("run_kind", threads ? "threads (unpinned, wall clock)"
                                          : wb::bench::probe::callgrind           ? "icount"
                                          : scope == wb::bench::RunScope::whole   ? "default"
                                          : scope == wb::bench::RunScope::payload ? "payload"
                                                                                  : "focused");
  benchmark::AddCustomContext("allocation_counter", memory ? "on" : "off");
  // What the memory fields mean (benchmarks/memory.cpp): tools read older
  // files, whose figures were counted over the memory run's whole loop.
  if (memory) benchmark::AddCustomContext("memory_figures", "per call");
  benchmark::AddCustomContext("pairing_matrix",
                              full ? "every size" : "field sizes (other sizes: from:reference)");
  // No benchmark matched the filter: fail, so no empty result file is published.
  if (rounds.rounds > 0) {
    rounds.filter = benchmark::GetBenchmarkFilter();
    const std::size_t ran = wb::bench::run_rounds(rounds);
    benchmark::Shutdown();
    return ran > 0 ? 0 : 1;
  }
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran > 0 ? 0 : 1;
}
