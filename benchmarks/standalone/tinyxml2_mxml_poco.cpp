// wirebench_standalone's loops for TinyXML-2, Mini-XML and Poco's SAX parser
// on atom/science/8100: each library's parse as its documentation shows it,
// with nothing bound, beside our seam's parse-only and decode of the same
// payload. TinyXML-2: XMLDocument::Parse with its length (a reused
// document). Mini-XML: mxmlLoadString with MXML_OPAQUE_CALLBACK (text as one
// node per run, its cheapest type) and mxmlDelete, and mxmlSAXLoadString with
// a callback that keeps nothing. Poco: SAXParser with namespaces over a
// DefaultHandler (no-op), parseMemoryNP; DOMParser::parseMemory with
// namespaces, the Document released.
#include <Poco/AutoPtr.h>
#include <Poco/DOM/DOMParser.h>
#include <Poco/DOM/Document.h>
#include <Poco/SAX/DefaultHandler.h>
#include <Poco/SAX/SAXParser.h>
#include <mxml.h>
#include <tinyxml2.h>

#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void tinyxml2_parse(benchmark::State& state) {
  tinyxml2::XMLDocument doc;
  run(
      state,
      [&](const std::string& in) {
        if (doc.Parse(in.data(), in.size()) != tinyxml2::XML_SUCCESS)
          throw std::runtime_error(doc.ErrorStr());
      },
      atom_payload());
}

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

void poco_sax(benchmark::State& state) {
  Poco::XML::DefaultHandler handler;
  Poco::XML::SAXParser parser;
  parser.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACES, true);
  parser.setContentHandler(&handler);
  run(
      state, [&](const std::string& in) { parser.parseMemoryNP(in.data(), in.size()); },
      atom_payload());
}

void poco_dom(benchmark::State& state) {
  Poco::XML::DOMParser parser;
  parser.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACES, true);
  run(
      state,
      [&](const std::string& in) {
        const Poco::AutoPtr<Poco::XML::Document> doc = parser.parseMemory(in.data(), in.size());
      },
      atom_payload());
}

}  // namespace

BENCHMARK_CAPTURE(atom_seam, tinyxml2_parse, "tinyxml2", false)
    ->Name("seam/tinyxml2/atom/science/8100/parse-only")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, tinyxml2_decode, "tinyxml2", true)
    ->Name("seam/tinyxml2/atom/science/8100/decode")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(tinyxml2_parse)
    ->Name("standalone/tinyxml2/atom/science/8100/parse")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, mxml_dom_parse, "mxml-dom", false)
    ->Name("seam/mxml-dom/atom/science/8100/parse-only")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, mxml_dom_decode, "mxml-dom", true)
    ->Name("seam/mxml-dom/atom/science/8100/decode")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(mxml_load)
    ->Name("standalone/mxml-dom/atom/science/8100/parse")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, mxml_sax_parse, "mxml-sax", false)
    ->Name("seam/mxml-sax/atom/science/8100/parse-only")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, mxml_sax_decode, "mxml-sax", true)
    ->Name("seam/mxml-sax/atom/science/8100/decode")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(mxml_sax)
    ->Name("standalone/mxml-sax/atom/science/8100/parse")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, poco_sax_parse, "poco-sax", false)
    ->Name("seam/poco-sax/atom/science/8100/parse-only")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, poco_sax_decode, "poco-sax", true)
    ->Name("seam/poco-sax/atom/science/8100/decode")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(poco_sax)
    ->Name("standalone/poco-sax/atom/science/8100/parse")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, poco_dom_parse, "poco-dom", false)
    ->Name("seam/poco-dom/atom/science/8100/parse-only")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(atom_seam, poco_dom_decode, "poco-dom", true)
    ->Name("seam/poco-dom/atom/science/8100/decode")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(poco_dom)
    ->Name("standalone/poco-dom/atom/science/8100/parse")
    ->Unit(benchmark::kMicrosecond);
