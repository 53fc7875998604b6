// Mini-XML's standalone loops on atom/science/8100, its parses as its
// documentation shows them with nothing bound, beside our seam's parse-only
// and decode of the same payload: mxmlLoadString with MXML_OPAQUE_CALLBACK
// (text as one node per run, its cheapest type) and mxmlDelete, and
// mxmlSAXLoadString with a callback that keeps nothing.
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <mxml.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void mxml_load(benchmark::State& state) {
  run(
      state,
      [](const std::string& in) {
        mxml_node_t* tree = mxmlLoadString(nullptr, in.c_str(), MXML_OPAQUE_CALLBACK);
        if (!tree) throw std::runtime_error("mxml parse error");
        mxmlDelete(tree);
      },
      atom_payload());
}

void mxml_sax(benchmark::State& state) {
  run(
      state,
      [](const std::string& in) {
        mxml_node_t* rest = mxmlSAXLoadString(
            nullptr, in.c_str(), MXML_OPAQUE_CALLBACK, [](mxml_node_t*, mxml_sax_event_t, void*) {},
            nullptr);
        if (rest) mxmlDelete(rest);  // none for a whole document
      },
      atom_payload());
}

const bool kAtom = atom_loops({
    {"mxml-dom", {{"parse", mxml_load}}},
    {"mxml-sax", {{"parse", mxml_sax}}},
});

}  // namespace
