// libxml2 DOM: xmlCtxtReadMemory with one reused parser context builds the
// tree, walk_dom feeds the shared binder, xmlFreeDoc drops the tree.
#include <memory>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = token::decoder_atom_libxml2_dom;

template <class Shape>
class Libxml2DomDecoder : public XmlDecoderFor<Libxml2DomDecoder<Shape>, Shape> {
 public:
  // The document element's name length.
  std::size_t parse_only(std::string_view input) final {
    const DocPtr doc = read(input);
    return static_cast<std::size_t>(xmlStrlen(xmlDocGetRootElement(doc.get())->name));
  }

 private:
  friend XmlDecoderFor<Libxml2DomDecoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    const DocPtr doc = read(input);
    walk_dom<libxml2::TreePolicy>(xmlDocGetRootElement(doc.get()), *sink);
  }

  struct FreeDoc {
    void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
  };
  using DocPtr = std::unique_ptr<xmlDoc, FreeDoc>;

  DocPtr read(std::string_view input) {
    const auto [xml, bom] = open_document(kLibrary, input);
    DocPtr doc(ctxt_.parse(kLibrary, xml));
    ctxt_.check(kLibrary, bom);
    if (!doc || !xmlDocGetRootElement(doc.get())) ctxt_.raise(kLibrary, bom);
    return doc;
  }

  libxml2::ReusedContext ctxt_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, libxml2_dom, wb::xml::Libxml2DomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, libxml2_dom, wb::xml::Libxml2DomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, libxml2_dom, wb::xml::Libxml2DomDecoder<wb::xml::Soap>)
