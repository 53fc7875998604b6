// pugixml's standalone loops on atom/science/8100. A DOM without namespace
// support, it gets the three DOM loops (the Walks of loops.hpp) with our
// adapter's parse options, beside the seam's parse-only and decode of
// pugixml-dom and the parse-only of pugixml-dom-utf8 (another set of flags of
// the same parse, with no loop of its own); and default/pugixml-dom/...,
// load_buffer with parse_default, as its users ship it.
#include <cstddef>
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <pugixml.hpp>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

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

const bool kDefault = default_loops({{"pugixml-dom", "atom", pugixml_default}});
const bool kAtom = atom_loops({
    {.library = "pugixml-dom-utf8", .decode = false},
    {"pugixml-dom",
     {{"parse", pugixml_dom<Walk::none>},
      {"parse+traverse", pugixml_dom<Walk::traverse>},
      {"parse+walk", pugixml_dom<Walk::visit>}}},
});

}  // namespace
