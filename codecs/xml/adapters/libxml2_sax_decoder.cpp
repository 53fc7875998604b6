// libxml2 SAX2: startElementNs / endElementNs / characters / cdataBlock feed
// the shared binder from inside libxml2's parse of one reused context.
// Binder exceptions must not unwind through libxml2's C frames: each callback
// catches, keeps the exception, stops the parser, and it is rethrown once
// xmlCtxtReadMemory has returned.
#include <exception>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/char_data.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = token::decoder_atom_libxml2_sax;

using libxml2::view;

// The SAX user data of one parse. B: the binder, or the canonical form
// (XmlDecoderFor).
template <class B>
struct SaxState {
  B* binder;
  xmlParserCtxtPtr ctxt;
  std::exception_ptr failure;
  std::string scratch;  // an attribute value with its references replaced

  template <class F>
  void guard(F f) {
    if (failure) return;
    try {
      f(*binder);
    } catch (...) {
      failure = std::current_exception();
      xmlStopParser(ctxt);
    }
  }
};

template <class B>
SaxState<B>& state(void* user_data) {
  return *static_cast<SaxState<B>*>(user_data);
}

template <class B>
void on_start(void* user_data, const xmlChar* local, const xmlChar*, const xmlChar* uri, int,
              const xmlChar**, int nb_attributes, int, const xmlChar** attributes) {
  state<B>(user_data).guard([&](B& b) {
    if (!b.start(view(uri), view(local)) || !b.wants_attributes()) return;
    // Five pointers per attribute: local name, prefix, URI, value, value end.
    // SAX2 hands '&' in a value on as the reference "&#38;" (libxml2 leaves
    // entities to the application without XML_PARSE_NOENT): an Atom next
    // link's query needs it replaced. The value is well-formed by then.
    for (int i = 0; i < nb_attributes; ++i) {
      const xmlChar* const* a = attributes + 5 * i;
      std::string_view value = view(a[3], a[4]);
      if (value.find('&') != std::string_view::npos)
        value = char_data(value, CharData::attribute, state<B>(user_data).scratch, kLibrary, -1);
      b.attribute(view(a[2]), view(a[0]), value);
    }
  });
}

template <class B>
void on_end(void* user_data, const xmlChar*, const xmlChar*, const xmlChar*) {
  state<B>(user_data).guard([](B& b) { b.end(); });
}

template <class B>
void on_text(void* user_data, const xmlChar* chars, int len) {
  state<B>(user_data).guard([&](B& b) { b.text(view(chars, chars + len)); });
}

template <class B>
xmlSAXHandler make_handler(bool bind) {
  xmlSAXHandler h{};
  h.initialized = XML_SAX2_MAGIC;  // namespace-aware SAX2 callbacks
  h.serror = libxml2::ReusedContext::on_error;
  if (bind) {
    h.startElementNs = on_start<B>;
    h.endElementNs = on_end<B>;
    h.characters = on_text<B>;
    h.cdataBlock = on_text<B>;
    h.ignorableWhitespace = on_text<B>;  // a string value may be all blanks
  }
  return h;
}

template <class B>
const xmlSAXHandler kBindHandler = make_handler<B>(true);
const xmlSAXHandler kEmptyHandler = make_handler<BinderBase>(false);  // parse_only

template <class Shape>
class Libxml2SaxDecoder : public XmlDecoderFor<Libxml2SaxDecoder<Shape>, Shape> {
 public:
  // Returns the line the parse ended on (libxml2 counts lines as it reads).
  std::size_t parse_only(std::string_view input) final {
    parse<BinderBase>(input, nullptr);
    return static_cast<std::size_t>(xmlSAX2GetLineNumber(ctxt_.get()));
  }

 private:
  friend XmlDecoderFor<Libxml2SaxDecoder, Shape>;
  // binder null: no callbacks, libxml2 only parses.
  template <class B>
  void parse(std::string_view input, B* binder) {
    const auto [xml, bom] = open_document(kLibrary, input);
    xmlParserCtxtPtr ctxt = ctxt_.get();
    SaxState<B> state{binder, ctxt, nullptr, {}};
    // The context owns its own copy of the handler.
    *ctxt->sax = binder ? kBindHandler<B> : kEmptyHandler;
    ctxt->userData = &state;
    // No document: these handlers build none (startDocument is not set).
    const xmlDocPtr doc = ctxt_.parse(kLibrary, xml);
    ctxt->userData = ctxt;
    if (doc) xmlFreeDoc(doc);
    if (state.failure) std::rethrow_exception(state.failure);
    ctxt_.check(kLibrary, bom);
  }

  libxml2::ReusedContext ctxt_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, libxml2_sax, wb::xml::Libxml2SaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, libxml2_sax, wb::xml::Libxml2SaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, libxml2_sax, wb::xml::Libxml2SaxDecoder<wb::xml::Soap>)
