// The standalone loops of JsonCpp, json-c, cJSON, YAJL and Poco's JSON
// parser (Jansson's, whose header clashes with json-c's, is in jansson.cpp)
// on json/science/8100: each library's parse as its
// documentation shows it, beside our seam's parse-only of the same payload
// (seam/{library}/...), so the two compare as a ratio. The DOM libraries
// build and free their tree; YAJL and Poco, whose adapters are event-based,
// run their parser with handlers that only count.
#include <memory>
#include <stdexcept>
#include <string>

#include <Poco/JSON/Handler.h>
#include <Poco/JSON/Parser.h>
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

// Poco's Parser with a Handler that counts (its ParseHandler would build
// Poco's own tree, which the adapter does not).
class CountingHandler : public Poco::JSON::Handler {
 public:
  std::size_t events = 0;
  void reset() override {}
  void startObject() override { ++events; }
  void endObject() override { ++events; }
  void startArray() override { ++events; }
  void endArray() override { ++events; }
  void key(const std::string&) override { ++events; }
  void null() override { ++events; }
  void value(int) override { ++events; }
  void value(unsigned) override { ++events; }
  void value(Poco::Int64) override { ++events; }
  void value(Poco::UInt64) override { ++events; }
  void value(const std::string&) override { ++events; }
  void value(double) override { ++events; }
  void value(bool) override { ++events; }
};

void poco_events(benchmark::State& state) {
  Poco::SharedPtr<CountingHandler> handler(new CountingHandler);
  Poco::JSON::Parser parser(handler);
  run(state, [&](const std::string& in) {
    parser.reset();
    // Parser::parse takes a std::string: the payload as a string, as a
    // user holds it (our seam copies its string_view into one).
    parser.parse(in);
    return handler->events;
  });
}

}  // namespace

WB_STANDALONE_PAIR(jsoncpp_dom, "jsoncpp")
WB_STANDALONE_PAIR(jsonc_dom, "json-c")
WB_STANDALONE_PAIR(cjson_dom, "cjson")
WB_STANDALONE_PAIR(yajl_events, "yajl")
WB_STANDALONE_PAIR(poco_events, "poco")
