// The standalone loops of JsonCpp, json-c, cJSON and YAJL on
// json/science/8100 (Jansson's, whose header clashes with json-c's, is in
// jansson.cpp; Poco's in poco_json.cpp, which gets Poco's compile
// definitions): each library's parse as its documentation shows it, beside
// our seam's parse-only of the same payload (seam/{library}/...), so the two
// compare as a ratio. The DOM libraries build and free their tree; YAJL,
// whose adapter is event-based, runs its parser with callbacks that count.
#include <memory>
#include <stdexcept>
#include <string>

#include <cjson/cJSON.h>
#include <json-c/json.h>
#include <json/json.h>
#include <yajl/yajl_parse.h>

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

void cjson_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    cJSON* root = cJSON_ParseWithLength(in.data(), in.size());
    if (!root) throw std::runtime_error("cJSON parse error");
    cJSON_Delete(root);
  });
}

// YAJL with callbacks for every event (its own number conversion), counting.
int count(void* n) {
  return ++*static_cast<std::size_t*>(n), 1;
}
const yajl_callbacks kCounting = {
    count,
    [](void* n, int) { return count(n); },
    [](void* n, long long) { return count(n); },
    [](void* n, double) { return count(n); },
    nullptr,
    [](void* n, const unsigned char*, std::size_t) { return count(n); },
    count,
    [](void* n, const unsigned char*, std::size_t) { return count(n); },
    count,
    count,
    count,
};

void yajl_events(benchmark::State& state) {
  run(state, [](const std::string& in) {
    std::size_t events = 0;
    yajl_handle h = yajl_alloc(&kCounting, nullptr, &events);
    const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
    const bool ok = yajl_parse(h, bytes, in.size()) == yajl_status_ok &&
                    yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    if (!ok) throw std::runtime_error("yajl parse error");
    return events;
  });
}

const bool kJson = json_loops({
    {"jsoncpp", jsoncpp_dom},
    {"json-c", jsonc_dom},
    {"cjson", cjson_dom},
    {"yajl", yajl_events},
});

}  // namespace
