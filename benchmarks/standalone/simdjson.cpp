// simdjson's standalone loops on json/science/8100, beside our seam's
// parse-only of each of its codecs: the DOM parser's parse, in place (the
// payload is padded), and On-Demand's iterate with a walk that reads every
// value, since On-Demand parses only what is read.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

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

const bool kJson = json_loops({
    {"simdjson-dom", simdjson_dom},
    {"simdjson-ondemand", simdjson_ondemand},
});

}  // namespace
