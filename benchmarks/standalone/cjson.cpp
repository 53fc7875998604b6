// cJSON's standalone loop on json/science/8100, beside our seam's
// parse-only: cJSON_ParseWithLength, the tree built and freed with
// cJSON_Delete.
#include <stdexcept>
#include <string>

#include <cjson/cJSON.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void cjson_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    cJSON* root = cJSON_ParseWithLength(in.data(), in.size());
    if (!root) throw std::runtime_error("cJSON parse error");
    cJSON_Delete(root);
  });
}

const bool kJson = json_loops({{"cjson", cjson_dom}});

}  // namespace
