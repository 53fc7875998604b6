// Xerces-C SAX2: one SAX2XMLReader (reused) feeds the binder directly.
#include <xercesc/sax2/Attributes.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/xerces_common.hpp"
#include "codecs/xml/binder.hpp"

namespace wb::xml {
namespace {

using namespace xercesc;
constexpr std::string_view kLibrary = token::decoder_atom_xerces_sax;

// Content events -> binder, names and text transcoded to UTF-8. An exception
// thrown by the binder (a bad record) unwinds out of SAX2XMLReader::parse,
// which Xerces supports: the next parse starts clean. B: the binder, or the
// canonical form.
template <class B>
class BinderHandler : public DefaultHandler {
 public:
  BinderHandler(B& binder, xerces::Utf8Views& utf8) : binder_(binder), utf8_(utf8) {}
  void startElement(const XMLCh* uri, const XMLCh* local, const XMLCh*,
                    const Attributes& attrs) final {
    if (!binder_.start(utf8_.uri(uri), utf8_.local(local)) || !binder_.wants_attributes()) return;
    for (XMLSize_t i = 0, n = attrs.getLength(); i < n; ++i)
      binder_.attribute(utf8_.uri(attrs.getURI(i)), utf8_.local(attrs.getLocalName(i)),
                        utf8_.value(attrs.getValue(i)));
  }
  void characters(const XMLCh* chars, XMLSize_t length) final {
    binder_.text(utf8_.value(chars, length));
  }
  void endElement(const XMLCh*, const XMLCh*, const XMLCh*) final { binder_.end(); }

 private:
  B& binder_;
  xerces::Utf8Views& utf8_;
};

template <Shape kShape>
class XercesSaxDecoder : public DecoderFor<XercesSaxDecoder<kShape>> {
 public:
  static constexpr bool kEntityRows = kShape == Shape::atom;
  XercesSaxDecoder() : reader_(XMLReaderFactory::createXMLReader()) {
    reader_->setFeature(XMLUni::fgSAX2CoreNameSpaces, true);
    reader_->setFeature(XMLUni::fgSAX2CoreNameSpacePrefixes, false);  // no xmlns attributes
    reader_->setFeature(XMLUni::fgSAX2CoreValidation, false);
    reader_->setFeature(XMLUni::fgXercesLoadExternalDTD, false);
    reader_->setFeature(XMLUni::fgXercesDisableDefaultEntityResolution, true);
    reader_->setProperty(XMLUni::fgXercesSecurityManager, &xerces_.limit);
    reader_->setErrorHandler(&xerces_.errors);
  }

  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    Binder<T> binder(kShape, rows, this->page_out());
    feed(input, static_cast<BinderBase&>(binder));
    binder.finish();
  }
  bool canonical(std::string_view input, std::string& out) final {
    CanonicalXml sink(out);
    feed(input, sink);
    sink.finish();
    return true;
  }
  // Returns the number of elements.
  std::size_t parse_only(std::string_view input) final {
    struct CountElements : DefaultHandler {  // every other event a no-op
      std::size_t elements = 0;
      void startElement(const XMLCh*, const XMLCh*, const XMLCh*, const Attributes&) final {
        ++elements;
      }
    } count;
    parse(input, count);
    return count.elements;
  }

 private:
  template <class B>
  void feed(std::string_view input, B& sink) {
    BinderHandler<B> handler(sink, xerces_.utf8);
    xerces_.utf8.uri.clear();
    parse(input, handler);
  }
  void parse(std::string_view input, ContentHandler& handler) {
    reader_->setContentHandler(&handler);
    xerces_.parse(kLibrary, input, [&](const InputSource& in) { reader_->parse(in); });
  }

  xerces::DecoderParts xerces_;  // first: Xerces is initialised before the reader
  std::unique_ptr<SAX2XMLReader> reader_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, xerces_sax, wb::xml::XercesSaxDecoder<wb::xml::Shape::atom>)
WB_DEFINE_DECODER(atom_v2, xerces_sax, wb::xml::XercesSaxDecoder<wb::xml::Shape::atom>)
WB_DEFINE_DECODER(soap, xerces_sax, wb::xml::XercesSaxDecoder<wb::xml::Shape::soap>)
