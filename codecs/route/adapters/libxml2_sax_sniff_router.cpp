// libxml2 SAX2 early exit: a streaming sniff that stops the parser
// (xmlStopParser) as soon as the first key element has ended, so only the
// bytes up to the key are parsed. Reuses the decoders' parser context.
#include "codecs/registry.hpp"
#include "codecs/route/sniff.hpp"
#include "codecs/router.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::route {
namespace {

constexpr std::string_view kLibrary = token::router_soap_libxml2_sniff;

using xml::libxml2::view;

// No error is reported for a stop.
using SniffState = CallbackSniff<xmlParserCtxtPtr, xmlStopParser>;

void on_start(void* user_data, const xmlChar* local, const xmlChar*, const xmlChar* uri, int,
              const xmlChar**, int, int, const xmlChar**) {
  SniffState::of(user_data).sniffer.start(view(uri), view(local));
}

void on_end(void* user_data, const xmlChar*, const xmlChar*, const xmlChar*) {
  SniffState::of(user_data).end();
}

void on_text(void* user_data, const xmlChar* chars, int len) {
  SniffState::of(user_data).sniffer.text(view(chars, chars + len));
}

xmlSAXHandler make_handler() {
  xmlSAXHandler h{};
  h.initialized = XML_SAX2_MAGIC;
  h.serror = xml::libxml2::ReusedContext::on_error;
  h.startElementNs = on_start;
  h.endElementNs = on_end;
  h.characters = on_text;
  h.cdataBlock = on_text;
  h.ignorableWhitespace = on_text;
  return h;
}

const xmlSAXHandler kHandler = make_handler();

class Libxml2SniffRouter : public Router {
 public:
  bool route(std::string_view payload, const RouteRule& rule) override {
    const auto [xml, bom] = xml::open_document(kLibrary, payload);
    xmlParserCtxtPtr ctxt = ctxt_.get();
    state_.parser = ctxt;
    state_.sniffer.reset(rule.ns, rule.local, rule.value);
    *ctxt->sax = kHandler;
    ctxt->userData = &state_;
    const xmlDocPtr doc = ctxt_.parse(kLibrary, xml);  // null: no startDocument
    ctxt->userData = ctxt;
    if (doc) xmlFreeDoc(doc);
    // Errors before the stop count; the stop itself is none.
    ctxt_.check(kLibrary, bom);
    return state_.sniffer.matched();
  }

 private:
  xml::libxml2::ReusedContext ctxt_;
  SniffState state_;
};

}  // namespace
}  // namespace wb::route

WB_DEFINE_ROUTER(soap, libxml2_sniff, wb::route::Libxml2SniffRouter)
