// wirebench_standalone's Xerces-C loops on atom/science/8100: the same three
// DOM loops as pugixml's and RapidXML's with our adapter's settings, and
// beside them its documented alternatives: no namespace processing (its
// fastest scan; no namespace URIs, so no binder can use it) and
// adoptDocument() + release() instead of resetDocumentPool(); and its SAX2
// reader with a no-op handler, with and without namespaces.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/parsers/XercesDOMParser.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLUni.hpp>

#include "benchmarks/standalone/loops.hpp"
#include "codecs/xml/adapters/xerces_common.hpp"

namespace {

using namespace wb::standalone;

// Xerces-C. Initialised as our adapters do (xerces::initialize: the DOM heap
// sizes are process-wide, fixed by the first Initialize), so that these loops
// and the seams below share one heap configuration.
namespace xerces_loops {

using namespace xercesc;

// The payload as an input source that its streams read in place
// (setCopyBufToStream(false); by default each parse copies the buffer).
struct Input {
  Input() { source.setCopyBufToStream(false); }
  const std::string& bytes = atom_payload();
  MemBufInputSource source{reinterpret_cast<const XMLByte*>(bytes.data()), bytes.size(), "atom",
                           false};
};

enum class Options { ours, no_namespaces };

// Without an error handler Xerces counts errors instead of throwing them.
void check(XMLSize_t errors) {
  if (errors != 0) throw std::runtime_error("xerces parse error");
}

// Our DOM adapter's settings (codecs/xml/xerces_dom.cpp), or Xerces' fastest:
// no namespace processing, no validation, no schema, no security manager.
void configure(XercesDOMParser& parser, Options options, SecurityManager& limit) {
  parser.setValidationScheme(XercesDOMParser::Val_Never);
  parser.setDoSchema(false);
  parser.setLoadExternalDTD(false);
  parser.setCreateEntityReferenceNodes(false);
  parser.setDisableDefaultEntityResolution(true);
  parser.setDoNamespaces(options == Options::ours);
  if (options == Options::ours) parser.setSecurityManager(&limit);
}

void xerces_traverse(const DOMNode* n, std::size_t& sink) {
  for (const DOMNode* c = n->getFirstChild(); c; c = c->getNextSibling()) {
    ++sink;
    if (c->getNodeType() == DOMNode::ELEMENT_NODE) xerces_traverse(c, sink);
  }
}

// Every element's namespace and local name, every attribute's local name and
// every text's data read (first unit), as pugi_walk.
void xerces_walk(const DOMNode* n, std::size_t& sink) {
  for (const DOMNode* c = n->getFirstChild(); c; c = c->getNextSibling()) {
    if (c->getNodeType() != DOMNode::ELEMENT_NODE) {
      sink += c->getNodeValue() ? c->getNodeValue()[0] : 0;
      continue;
    }
    sink += (c->getNamespaceURI() != nullptr) + c->getLocalName()[0];
    const DOMNamedNodeMap* attrs = c->getAttributes();
    for (XMLSize_t i = 0, count = attrs->getLength(); i < count; ++i)
      sink += attrs->item(i)->getLocalName()[0];
    xerces_walk(c, sink);
  }
}

// The parser reused and each document freed by resetDocumentPool() (our
// adapter's idiom), or adopted and released.
template <Options kOptions, Walk kWalk, bool kAdopt = false>
void dom(benchmark::State& state) {
  wb::xml::xerces::initialize();
  SecurityManager limit;  // its default entity expansion limit, as our adapters'
  XercesDOMParser parser;
  configure(parser, kOptions, limit);
  Input input;
  run(
      state,
      [&](const std::string&) {
        parser.parse(input.source);
        check(parser.getErrorCount());
        std::size_t sink = 0;
        const DOMDocument* doc = parser.getDocument();
        if (kWalk == Walk::traverse) xerces_traverse(doc, sink);
        if (kWalk == Walk::visit) xerces_walk(doc, sink);
        benchmark::DoNotOptimize(sink);
        if (kAdopt)
          parser.adoptDocument()->release();
        else
          parser.resetDocumentPool();
      },
      input.bytes);
}

// Our SAX2 adapter's features (codecs/xml/xerces_sax.cpp), or none of the
// namespace processing; every event a no-op.
template <Options kOptions>
void sax(benchmark::State& state) {
  wb::xml::xerces::initialize();
  SecurityManager limit;
  DefaultHandler ignore;
  std::unique_ptr<SAX2XMLReader> reader(XMLReaderFactory::createXMLReader());
  reader->setFeature(XMLUni::fgSAX2CoreNameSpaces, kOptions == Options::ours);
  reader->setFeature(XMLUni::fgSAX2CoreNameSpacePrefixes, false);
  reader->setFeature(XMLUni::fgSAX2CoreValidation, false);
  reader->setFeature(XMLUni::fgXercesSchema, false);
  reader->setFeature(XMLUni::fgXercesLoadExternalDTD, false);
  reader->setFeature(XMLUni::fgXercesDisableDefaultEntityResolution, true);
  if (kOptions == Options::ours) reader->setProperty(XMLUni::fgXercesSecurityManager, &limit);
  reader->setContentHandler(&ignore);
  Input input;
  run(
      state,
      [&](const std::string&) {
        reader->parse(input.source);
        check(reader->getErrorCount());
      },
      input.bytes);
}

const bool kAtom = atom_loops({
    {"xerces-dom",
     {{"parse", dom<Options::ours, Walk::none>},
      {"parse+traverse", dom<Options::ours, Walk::traverse>},
      {"parse+walk", dom<Options::ours, Walk::visit>},
      {"parse-adopt-release", dom<Options::ours, Walk::none, true>},
      {"parse-no-namespaces", dom<Options::no_namespaces, Walk::none>}}},
    {"xerces-sax",
     {{"parse", sax<Options::ours>}, {"parse-no-namespaces", sax<Options::no_namespaces>}}},
});

}  // namespace xerces_loops

}  // namespace
