// wirebench_standalone: each JSON library's parse of json/science/8100 in the
// smallest loop its documentation suggests, bypassing our codec seam. It is
// the figure the harness's parse-only benchmarks are checked against (the
// seam should add < 15 %), so it names the libraries on purpose.
// The XML DOMs without namespace support (pugixml, RapidXML) get three loops
// on atom/science/8100: the parse with our adapter's options; the parse plus a
// bare traversal (every node reached, nothing read: less than any binder
// does); and the parse plus the least walk any binder needs (every node,
// name, attribute and text visited, nothing bound). The last two bound
// "decode + bind" from below for those DOMs.
// Beside them, default/{library}/... is each library's parse as its users
// ship it, with the library's default flags and nothing else (RapidJSON:
// recursive, no UTF-8 check, its fast double conversion; pugixml:
// parse_default; RapidXML: flags 0, destructive): against our seam's
// parse-only, the price of the equal conditions our adapters set.
// Xerces-C's loops are in xerces.cpp; the libraries of
// cmake/json_libraries.cmake and Poco's in json_c_libraries.cpp.
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>
#include <rapidjson/document.h>
#include <simdjson.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <rapidxml/rapidxml.hpp>

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

void nlohmann_dom(benchmark::State& state) {
  run(state, [](const std::string& in) {
    nlohmann::json doc = nlohmann::json::parse(in.begin(), in.end());
    benchmark::DoNotOptimize(doc);
  });
}

// pugixml with our adapter's parse options (codecs/xml/pugixml.cpp).
constexpr unsigned kPugiOptions =
    pugi::parse_default | pugi::parse_ws_pcdata | pugi::parse_embed_pcdata;

void pugi_walk(pugi::xml_node n, std::size_t& sink) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
    if (c.type() != pugi::node_element) {
      sink += c.value()[0];
      continue;
    }
    sink += c.name()[0] + c.value()[0];
    for (pugi::xml_attribute a = c.first_attribute(); a; a = a.next_attribute())
      sink += a.name()[0];
    pugi_walk(c, sink);
  }
}

// Less than any binder can do: every node reached, and nothing read from it
// (no name, value or attribute). The floor under a DOM walk itself.
void pugi_traverse(pugi::xml_node n, std::size_t& sink) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
    ++sink;
    if (c.type() == pugi::node_element) pugi_traverse(c, sink);
  }
}

template <Walk kWalk>
void pugixml_dom(benchmark::State& state) {
  pugi::xml_document doc;
  run(
      state,
      [&](const std::string& in) {
        if (!doc.load_buffer(in.data(), in.size(), kPugiOptions))
          throw std::runtime_error("pugixml parse error");
        std::size_t sink = 0;
        if (kWalk == Walk::traverse) pugi_traverse(doc, sink);
        if (kWalk == Walk::visit) pugi_walk(doc, sink);
        benchmark::DoNotOptimize(sink);
      },
      atom_payload());
}

void pugixml_default(benchmark::State& state) {
  pugi::xml_document doc;
  run(
      state,
      [&](const std::string& in) {
        if (!doc.load_buffer(in.data(), in.size())) throw std::runtime_error("pugixml parse error");
        benchmark::DoNotOptimize(doc.first_child());
      },
      atom_payload());
}

// RapidXML with our adapter's flags (codecs/xml/rapidxml.cpp), over a copy.
constexpr int kRapidFlags =
    rapidxml::parse_non_destructive | rapidxml::parse_validate_closing_tags |
    rapidxml::parse_no_element_values | rapidxml::parse_comment_nodes | rapidxml::parse_pi_nodes;

void rapid_walk(const rapidxml::xml_node<char>* n, std::size_t& sink) {
  for (const auto* c = n->first_node(); c; c = c->next_sibling()) {
    if (c->type() != rapidxml::node_element) {
      sink += c->value_size();
      continue;
    }
    sink += c->name_size();
    for (const auto* a = c->first_attribute(); a; a = a->next_attribute()) sink += a->name_size();
    rapid_walk(c, sink);
  }
}

void rapid_traverse(const rapidxml::xml_node<char>* n, std::size_t& sink) {
  for (const auto* c = n->first_node(); c; c = c->next_sibling()) {
    ++sink;
    if (c->type() == rapidxml::node_element) rapid_traverse(c, sink);
  }
}

template <Walk kWalk>
void rapidxml_dom(benchmark::State& state) {
  rapidxml::xml_document<char> doc;
  std::string buffer;
  run(
      state,
      [&](const std::string& in) {
        buffer.assign(in.data(), in.size() + 1);  // with its terminator
        doc.clear();
        doc.parse<kRapidFlags>(buffer.data());
        std::size_t sink = 0;
        if (kWalk == Walk::traverse) rapid_traverse(&doc, sink);
        if (kWalk == Walk::visit) rapid_walk(&doc, sink);
        benchmark::DoNotOptimize(sink);
      },
      atom_payload());
}

// RapidXML's default parse<0> changes its input (in situ, destructive): over
// a fresh copy per call, as the adapter's parse is.
void rapidxml_default(benchmark::State& state) {
  rapidxml::xml_document<char> doc;
  std::string buffer;
  run(
      state,
      [&](const std::string& in) {
        buffer.assign(in.data(), in.size() + 1);
        doc.clear();
        doc.parse<0>(buffer.data());
        benchmark::DoNotOptimize(doc.first_node());
      },
      atom_payload());
}

const bool kJson = json_loops({
    {"simdjson-dom", simdjson_dom},
    {"simdjson-ondemand", simdjson_ondemand},
    {"rapidjson-dom", rapidjson_dom},
    {"rapidjson-dom-fast"},
    {"nlohmann-dom", nlohmann_dom},
});
const bool kDefault = default_loops({
    {"rapidjson-dom", "json", rapidjson_default},
    {"pugixml-dom", "atom", pugixml_default},
    {"rapidxml", "atom", rapidxml_default},
});
const bool kAtom = atom_loops({
    {.library = "pugixml-dom-utf8", .decode = false},
    {"pugixml-dom",
     {{"parse", pugixml_dom<Walk::none>},
      {"parse+traverse", pugixml_dom<Walk::traverse>},
      {"parse+walk", pugixml_dom<Walk::visit>}}},
    {"rapidxml",
     {{"parse", rapidxml_dom<Walk::none>},
      {"parse+traverse", rapidxml_dom<Walk::traverse>},
      {"parse+walk", rapidxml_dom<Walk::visit>}}},
});

}  // namespace

BENCHMARK_MAIN();
