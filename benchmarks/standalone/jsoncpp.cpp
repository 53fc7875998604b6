// JsonCpp's standalone loop on json/science/8100, beside our seam's
// parse-only: a CharReader from CharReaderBuilder parses into a Value, the
// tree built and freed.
#include <memory>
#include <stdexcept>
#include <string>

#include <json/json.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void jsoncpp_dom(benchmark::State& state) {
  const std::unique_ptr<Json::CharReader> reader(Json::CharReaderBuilder().newCharReader());
  run(state, [&](const std::string& in) {
    Json::Value root;
    std::string errors;
    if (!reader->parse(in.data(), in.data() + in.size(), &root, &errors))
      throw std::runtime_error(errors);
    benchmark::DoNotOptimize(root);
  });
}

const bool kJson = json_loops({{"jsoncpp", jsoncpp_dom}});

}  // namespace
