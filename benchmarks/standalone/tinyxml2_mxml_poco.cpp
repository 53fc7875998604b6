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

const bool kAtom = atom_loops({
    {"tinyxml2", {{"parse", tinyxml2_parse}}},
    {"mxml-dom", {{"parse", mxml_load}}},
    {"mxml-sax", {{"parse", mxml_sax}}},
    {"poco-sax", {{"parse", poco_sax}}},
    {"poco-dom", {{"parse", poco_dom}}},
});

}  // namespace
