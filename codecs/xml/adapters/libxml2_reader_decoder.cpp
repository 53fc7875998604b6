// libxml2's pull parser (xmlTextReader): one reader re-armed per call with
// xmlReaderNewMemory; our loop pulls nodes and feeds the shared binder, so no
// exception ever crosses libxml2's frames.
#include <libxml/xmlreader.h>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = token::decoder_atom_libxml2_reader;

using libxml2::view;

template <class Shape>
class Libxml2ReaderDecoder : public XmlDecoderFor<Libxml2ReaderDecoder<Shape>, Shape> {
 public:
  Libxml2ReaderDecoder() { libxml2::prepare_thread(); }
  ~Libxml2ReaderDecoder() override {
    if (reader_) xmlFreeTextReader(reader_);
  }
  Libxml2ReaderDecoder(const Libxml2ReaderDecoder&) = delete;
  Libxml2ReaderDecoder& operator=(const Libxml2ReaderDecoder&) = delete;

  // Returns the number of nodes read.
  std::size_t parse_only(std::string_view input) final {
    const std::size_t bom = open(input);
    int rc;
    std::size_t nodes = 0;
    while ((rc = xmlTextReaderRead(reader_)) == 1) ++nodes;
    finish_reading(rc, bom);
    return nodes;
  }

 private:
  friend XmlDecoderFor<Libxml2ReaderDecoder, Shape>;
  // The nodes into a binder, or the canonical form (XmlDecoderFor).
  template <class B>
  void parse(std::string_view input, B* sink) {
    const std::size_t bom = open(input);
    B& binder = *sink;
    int rc;
    while ((rc = xmlTextReaderRead(reader_)) == 1) {
      switch (xmlTextReaderNodeType(reader_)) {
        case XML_READER_TYPE_ELEMENT: {
          // Asked before moving onto the attributes, which changes the node.
          const bool empty = xmlTextReaderIsEmptyElement(reader_) == 1;
          if (binder.start(view(xmlTextReaderConstNamespaceUri(reader_)),
                           view(xmlTextReaderConstLocalName(reader_))) &&
              binder.wants_attributes())
            while (xmlTextReaderMoveToNextAttribute(reader_) == 1)
              if (xmlTextReaderIsNamespaceDecl(reader_) != 1)
                binder.attribute(view(xmlTextReaderConstNamespaceUri(reader_)),
                                 view(xmlTextReaderConstLocalName(reader_)),
                                 view(xmlTextReaderConstValue(reader_)));
          if (empty) binder.end();  // <x/> has no END_ELEMENT node
          break;
        }
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        case XML_READER_TYPE_WHITESPACE:  // a string value may be all blanks
          binder.text(view(xmlTextReaderConstValue(reader_)));
          break;
        case XML_READER_TYPE_END_ELEMENT:
          binder.end();
          break;
        default:
          break;
      }
    }
    finish_reading(rc, bom);
  }

  // Points the reader at the payload; returns the BOM length skipped.
  std::size_t open(std::string_view input) {
    libxml2::prepare_thread();
    const auto [xml, bom] = open_document(kLibrary, input);
    const int size = libxml2::input_size(kLibrary, xml);
    if (!reader_)
      reader_ = xmlReaderForMemory(xml.data(), size, nullptr, nullptr, libxml2::kParseOptions);
    else if (xmlReaderNewMemory(reader_, xml.data(), size, nullptr, nullptr,
                                libxml2::kParseOptions) != 0)
      throw DecodeError(kLibrary, "xmlReaderNewMemory failed");
    if (!reader_) throw std::bad_alloc();
    // Set again each time: re-arming the reader may reset its handlers.
    xmlTextReaderSetStructuredErrorHandler(reader_, libxml2::FirstError::record, &errors_);
    errors_.clear();
    return static_cast<std::size_t>(bom);
  }

  void finish_reading(int rc, std::size_t bom) const {
    if (rc < 0) errors_.raise(kLibrary, bom);
    errors_.raise_if_failed(kLibrary, bom);  // e.g. namespace errors, which do not stop it
  }

  xmlTextReaderPtr reader_ = nullptr;
  libxml2::FirstError errors_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, libxml2_reader, wb::xml::Libxml2ReaderDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, libxml2_reader, wb::xml::Libxml2ReaderDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, libxml2_reader, wb::xml::Libxml2ReaderDecoder<wb::xml::Soap>)
