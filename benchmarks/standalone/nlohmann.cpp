// nlohmann/json's standalone loop on json/science/8100, beside our seam's
// parse-only: json::parse over the payload's iterators, the tree built and
// freed.
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void nlohmann_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    nlohmann::json doc = nlohmann::json::parse(in.begin(), in.end());
    benchmark::DoNotOptimize(doc);
  });
}

const bool kJson = json_loops({{"nlohmann-dom", nlohmann_dom}});

}  // namespace
