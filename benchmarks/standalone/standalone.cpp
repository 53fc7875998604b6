// wirebench_standalone: each JSON library's parse of json/science/8100 in the
// smallest loop its documentation suggests, bypassing our codec seam. It is
// the figure the harness's parse-only benchmarks are checked against (the
// seam should add < 15 %), so it names the libraries on purpose.
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>
#include <rapidjson/document.h>
#include <simdjson.h>
#include <nlohmann/json.hpp>

#include "benchmarks/counters.hpp"
#include "codecs/registry.hpp"

namespace {

constexpr int kRows = 8100;

// The payload our harness parses: the reference writer's json/science/8100.
const std::string& payload() {
  static const std::string padded = [] {
    const char* seed = std::getenv("WIREBENCH_SEED");
    std::string out;
    wb::find_codec("json", wb::Role::encode, "reference")
        ->make_encoder()
        ->encode(wb::generate(wb::DatasetKind::science, kRows,
                              seed && *seed ? std::strtoull(seed, nullptr, 10) : wb::kDefaultSeed),
                 out);
    return wb::padded_copy(out);
  }();
  return padded;
}

// Touches every value the way a binder would (strings unescaped, numbers converted).
void walk(simdjson::ondemand::value v, std::size_t& sink) {
  using simdjson::ondemand::json_type;
  switch (json_type(v.type())) {
    case json_type::object:
      for (auto f : v.get_object()) {
        simdjson::ondemand::field field = std::move(f);
        sink += std::string_view(field.unescaped_key()).size();
        walk(field.value(), sink);
      }
      break;
    case json_type::array:
      for (auto element : v.get_array()) walk(std::move(element), sink);
      break;
    case json_type::string:
      sink += std::string_view(v.get_string()).size();
      break;
    case json_type::number:
      sink += v.get_number().error() == simdjson::SUCCESS;  // ints and doubles, as our walk
      break;
    case json_type::boolean:
      sink += bool(v.get_bool());
      break;
    case json_type::null:
      sink += v.is_null();
      break;
  }
}

template <class Parse>
void run(benchmark::State& state, Parse&& parse) {
  const std::string& in = payload();
  try {
    parse(in);  // once untimed: a library that rejects the payload is not timed
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  wb::bench::FaultCounter faults;
  for (auto _ : state) parse(in);
  faults.report(state);
  wb::bench::set_throughput(state, in.size(), kRows);
}

void simdjson_dom(benchmark::State& state) {
  simdjson::dom::parser parser;
  run(state, [&](const std::string& in) {
    simdjson::dom::element doc = parser.parse(in.data(), in.size(), false);
    benchmark::DoNotOptimize(doc);
  });
}

void simdjson_ondemand(benchmark::State& state) {
  simdjson::ondemand::parser parser;
  run(state, [&](const std::string& in) {
    simdjson::ondemand::document doc = parser.iterate(in.data(), in.size(), in.capacity());
    std::size_t sink = 0;
    walk(doc.get_value(), sink);
    benchmark::DoNotOptimize(sink);
  });
}

void rapidjson_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    rapidjson::Document doc;
    // The same flags as our rapidjson-dom adapter: exact doubles, iterative
    // (bounded stack on deep nesting), UTF-8 validation.
    doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag |
              rapidjson::kParseValidateEncodingFlag>(in.data(), in.size());
    if (doc.HasParseError()) throw std::runtime_error("rapidjson parse error");
    benchmark::DoNotOptimize(doc);
  });
}

void nlohmann_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    nlohmann::json doc = nlohmann::json::parse(in.begin(), in.end());
    benchmark::DoNotOptimize(doc);
  });
}

// The same payload through our seam (the registry decoder's parse_only), in the
// same process and run as the loops above, so the two compare as a ratio.
void seam(benchmark::State& state, const char* library) {
  auto decoder = wb::find_codec("json", wb::Role::decode, library)->make_decoder();
  run(state, [&](const std::string& in) { decoder->parse_only(in); });
}

}  // namespace

BENCHMARK_CAPTURE(seam, simdjson_dom, "simdjson-dom")
    ->Name("seam/simdjson-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(seam, simdjson_ondemand, "simdjson-ondemand")
    ->Name("seam/simdjson-ondemand/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(seam, rapidjson_dom, "rapidjson-dom")
    ->Name("seam/rapidjson-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(seam, nlohmann_dom, "nlohmann-dom")
    ->Name("seam/nlohmann-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(simdjson_dom)
    ->Name("standalone/simdjson-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(simdjson_ondemand)
    ->Name("standalone/simdjson-ondemand/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(rapidjson_dom)
    ->Name("standalone/rapidjson-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(nlohmann_dom)
    ->Name("standalone/nlohmann-dom/json/science/8100")
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
