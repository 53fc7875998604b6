// RapidXML's standalone loops on atom/science/8100. A DOM without namespace
// support, it gets the three DOM loops (the Walks of loops.hpp) with our
// adapter's flags, non-destructive over a copy, beside the seam's parse-only
// and decode of rapidxml; and default/rapidxml/..., parse<0> as its users
// ship it (destructive, in situ).
#include <cstddef>
#include <string>

#include <benchmark/benchmark.h>
#include <rapidxml/rapidxml.hpp>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

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

const bool kDefault = default_loops({{"rapidxml", "atom", rapidxml_default}});
const bool kAtom = atom_loops({
    {"rapidxml",
     {{"parse", rapidxml_dom<Walk::none>},
      {"parse+traverse", rapidxml_dom<Walk::traverse>},
      {"parse+walk", rapidxml_dom<Walk::visit>}}},
});

}  // namespace
