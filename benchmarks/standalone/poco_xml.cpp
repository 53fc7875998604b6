// Poco's XML loops on atom/science/8100, its parses as its documentation
// shows them with nothing bound, beside our seam's parse-only and decode of
// the same payload: SAXParser with namespaces over a DefaultHandler (no-op),
// parseMemoryNP; DOMParser::parseMemory with namespaces, the Document
// released. Named *poco*.cpp, it gets Poco's compile definitions
// (cmake/xml_compress_libraries.cmake).
#include <string>

#include <Poco/AutoPtr.h>
#include <Poco/DOM/DOMParser.h>
#include <Poco/DOM/Document.h>
#include <Poco/SAX/DefaultHandler.h>
#include <Poco/SAX/SAXParser.h>
#include <benchmark/benchmark.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

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
    {"poco-sax", {{"parse", poco_sax}}},
    {"poco-dom", {{"parse", poco_dom}}},
});

}  // namespace
