// What the standalone loops share (every file beside this one): the payloads
// our harness parses, the loop around each library's parse, the walks a DOM
// loop can add, and the tables that name and register the loops.
#pragma once

#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/counters.hpp"
#include "codecs/registry.hpp"
#include "generators/datasets.hpp"

namespace wb::standalone {

// Every loop's payload is this dataset at this size: an Azure subset.
inline constexpr wb::DatasetKind kDataset = wb::DatasetKind::science;
inline constexpr int kRows = 8100;

// The payload our harness parses: the reference writer's {format}/science/8100.
inline std::string encode(const char* format) {
  const char* seed = std::getenv("WIREBENCH_SEED");
  std::string out;
  wb::find_codec(format, wb::Role::encode, "reference")
      ->make_encoder()
      ->encode(wb::generate(kDataset, kRows,
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
// node reached, nothing read: less than any binder does), or the least walk
// any binder needs (every node, name, attribute and text visited, nothing
// bound). The DOMs without namespace support (pugixml, RapidXML) and Xerces-C
// get a loop of each: the last two bound "decode + bind" from below.
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

// The tables below name every loop {kind}/{library}/{format}/science/8100,
// then /{step} where the payload has more than one loop of a kind: the names
// the report's standalone section splits (tools/wbtools/standalone.py). Kinds:
// seam (our registry decoder), standalone (the library's own loop), default
// (its parse with the library's default flags). Each table registers its
// rows, in order, at static initialisation, as BENCHMARK() does, and returns
// a token for the variable that holds it.

// A loop that picks its own payload.
using Loop = void (*)(benchmark::State&);

template <class Body>
void add(std::string_view kind, std::string_view library, std::string_view format,
         std::string_view step, Body&& body) {
  std::string name;
  name.append(kind).append("/").append(library).append("/").append(format);
  name.append("/").append(wb::dataset_info(kDataset).name).append("/");
  name.append(std::to_string(kRows));
  if (!step.empty()) name.append("/").append(step);
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Body>(body))
      ->Unit(benchmark::kMicrosecond);
}

// A JSON library on json/science/8100: the seam's parse-only of its decoder,
// then its own loop (none for a codec that is another set of flags of a
// library whose loop a row before it has).
struct JsonLoops {
  const char* library;
  Loop own = nullptr;
};
inline bool json_loops(std::initializer_list<JsonLoops> table) {
  for (const JsonLoops& row : table) {
    add("seam", row.library, "json", "",
        [library = row.library](benchmark::State& state) { json_seam(state, library); });
    if (row.own) add("standalone", row.library, "json", "", row.own);
  }
  return true;
}

// A library's own loop on atom/science/8100 and its step: "parse", or what
// the loop does besides or instead ("parse+walk", "parse-no-namespaces").
struct Step {
  const char* name;
  Loop loop;
};
// An XML library on atom/science/8100: the seam's parse-only and decode of
// its decoder (decode false: parse-only alone, for a codec that is another
// set of flags of a library), then its own loops.
struct AtomLoops {
  const char* library;
  std::vector<Step> own = {};
  bool decode = true;
};
inline bool atom_loops(std::initializer_list<AtomLoops> table) {
  for (const AtomLoops& row : table) {
    const char* library = row.library;
    add("seam", library, "atom", "parse-only",
        [library](benchmark::State& state) { atom_seam(state, library, false); });
    if (row.decode)
      add("seam", library, "atom", "decode",
          [library](benchmark::State& state) { atom_seam(state, library, true); });
    for (const Step& step : row.own) add("standalone", library, "atom", step.name, step.loop);
  }
  return true;
}

// A library's parse as its users ship it, on {format}/science/8100, with
// the library's default flags and nothing else: against our seam's
// parse-only, the price of the equal conditions our adapters set.
struct DefaultLoop {
  const char* library;
  const char* format;
  Loop loop;
};
inline bool default_loops(std::initializer_list<DefaultLoop> table) {
  for (const DefaultLoop& row : table) add("default", row.library, row.format, "", row.loop);
  return true;
}

}  // namespace wb::standalone
