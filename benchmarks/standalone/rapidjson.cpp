// RapidJSON's standalone loops on json/science/8100: its DOM parse with the
// flags of our rapidjson-dom codec, beside the seam's parse-only of that codec
// and of rapidjson-dom-fast (another set of flags of the same parse, with no
// loop of its own); and default/rapidjson-dom/..., Parse() as its users ship
// it (recursive, no UTF-8 check, its fast double conversion).
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <rapidjson/document.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void rapidjson_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    rapidjson::Document doc;
    // RapidJSON's own exact-double mode, iterative (bounded stack on deep
    // nesting), UTF-8 validation. (Our exact adapters read numbers as text and
    // convert them with from_chars instead: 1.1.0's full-precision conversion
    // is wrong for zero significands with large exponents; docs/findings.md.)
    doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag |
              rapidjson::kParseValidateEncodingFlag>(in.data(), in.size());
    if (doc.HasParseError()) throw std::runtime_error("rapidjson parse error");
    benchmark::DoNotOptimize(doc);
  });
}

// As users call it: Parse() with kParseDefaultFlags.
void rapidjson_default(benchmark::State& state) {
  run(state, [](const std::string& in) {
    rapidjson::Document doc;
    doc.Parse(in.data(), in.size());
    if (doc.HasParseError()) throw std::runtime_error("rapidjson parse error");
    benchmark::DoNotOptimize(doc);
  });
}

const bool kJson = json_loops({
    {"rapidjson-dom", rapidjson_dom},
    {"rapidjson-dom-fast"},
});
const bool kDefault = default_loops({{"rapidjson-dom", "json", rapidjson_default}});

}  // namespace
