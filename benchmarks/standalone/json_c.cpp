// json-c's standalone loop on json/science/8100, beside our seam's
// parse-only: json_tokener_parse_ex with a reused tokener, the tree built and
// freed with json_object_put.
#include <stdexcept>
#include <string>

#include <json-c/json.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void jsonc_dom(benchmark::State& state) {
  json_tokener* tok = json_tokener_new();
  run(state, [&](const std::string& in) {
    json_tokener_reset(tok);
    json_object* root = json_tokener_parse_ex(tok, in.data(), static_cast<int>(in.size()));
    if (!root) throw std::runtime_error("json-c parse error");
    json_object_put(root);
  });
  json_tokener_free(tok);
}

const bool kJson = json_loops({{"json-c", jsonc_dom}});

}  // namespace
