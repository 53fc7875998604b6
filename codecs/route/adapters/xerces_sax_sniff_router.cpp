// Xerces-C SAX2 early exit: a progressive scan (parseFirst / parseNext, one
// token at a time) that stops once the first key element has ended and
// resets the reader, so only the bytes up to the key are parsed. Names and
// text are compared in UTF-16, Xerces' own encoding.
#include <xercesc/framework/XMLPScanToken.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>

#include "codecs/registry.hpp"
#include "codecs/route/sniff.hpp"
#include "codecs/router.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/xerces_common.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::route {
namespace {

using namespace xercesc;
constexpr std::string_view kLibrary = token::router_soap_xerces_sniff;

using View = std::u16string_view;
View view(const XMLCh* s) {
  return s ? View(s) : View();
}

class SniffHandler : public DefaultHandler {
 public:
  KeySniffer<char16_t> sniffer;

  void startElement(const XMLCh* uri, const XMLCh* local, const XMLCh*, const Attributes&) final {
    sniffer.start(view(uri), view(local));
  }
  void characters(const XMLCh* chars, XMLSize_t length) final { sniffer.text(View(chars, length)); }
  void endElement(const XMLCh*, const XMLCh*, const XMLCh*) final { sniffer.end(); }
};

class XercesSniffRouter : public Router {
 public:
  // The settings of the Xerces SAX2 decoder (codecs/xml/adapters/xerces_sax_decoder.cpp):
  // namespaces on, no validation, no DTD loading, bounded entity expansion.
  XercesSniffRouter() : reader_(XMLReaderFactory::createXMLReader()) {
    reader_->setFeature(XMLUni::fgSAX2CoreNameSpaces, true);
    reader_->setFeature(XMLUni::fgSAX2CoreNameSpacePrefixes, false);
    reader_->setFeature(XMLUni::fgSAX2CoreValidation, false);
    reader_->setFeature(XMLUni::fgXercesLoadExternalDTD, false);
    reader_->setFeature(XMLUni::fgXercesDisableDefaultEntityResolution, true);
    reader_->setProperty(XMLUni::fgXercesSecurityManager, &xerces_.limit);
    reader_->setErrorHandler(&xerces_.errors);
    reader_->setContentHandler(&handler_);
  }

  bool route(std::string_view payload, const RouteRule& rule) override {
    if (rule.ns != rule_.ns || rule.local != rule_.local || rule.value != rule_.value) {
      rule_ = rule;
      ns_ = to_xmlch_(rule.ns);
      local_ = to_xmlch_(rule.local);
      value_ = to_xmlch_(rule.value);
    }
    handler_.sniffer.reset(ns_, local_, value_);
    XMLPScanToken token;
    bool open = false;
    try {
      xml::xerces::translate_errors(kLibrary, [&] {
        if (!reader_->parseFirst(xerces_.source(xml::open_document(kLibrary, payload).body), token))
          throw DecodeError(kLibrary, "cannot start the parse");
        open = true;
        while (!handler_.sniffer.done() && reader_->parseNext(token)) {
        }
      });
    } catch (...) {
      if (open) reader_->parseReset(token);
      throw;
    }
    // Stopped early: release the scanner's input now, not at the next parse.
    if (handler_.sniffer.done()) reader_->parseReset(token);
    return handler_.sniffer.matched();
  }

 private:
  xml::xerces::ReaderParts xerces_;  // first: Xerces is initialised before the reader
  xml::xerces::XmlChBuffer to_xmlch_;
  RouteRule rule_;  // the rule last seen, and its UTF-16 form
  std::u16string ns_, local_, value_;
  SniffHandler handler_;
  std::unique_ptr<SAX2XMLReader> reader_;
};

}  // namespace
}  // namespace wb::route

WB_DEFINE_ROUTER(soap, xerces_sniff, wb::route::XercesSniffRouter)
