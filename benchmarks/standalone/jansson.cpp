// Jansson's standalone loop on json/science/8100 (json_loadb, then
// json_decref), beside our seam's parse-only. Its headers and json-c's
// declare the same names, so the two never share a file.
#include <stdexcept>
#include <string>

#include <jansson.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void jansson_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    json_error_t error;
    json_t* root = json_loadb(in.data(), in.size(), 0, &error);
    if (!root) throw std::runtime_error(error.text);
    json_decref(root);
  });
}

const bool kJson = json_loops({{"jansson", jansson_dom}});

}  // namespace
