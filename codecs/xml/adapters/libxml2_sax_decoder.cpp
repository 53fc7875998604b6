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

// The SAX user data of one parse.
struct SaxState {
  BinderBase* binder;
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

SaxState& state(void* user_data) {
  return *static_cast<SaxState*>(user_data);
}

void on_start(void* user_data, const xmlChar* local, const xmlChar*, const xmlChar* uri, int,
              const xmlChar**, int nb_attributes, int, const xmlChar** attributes) {
  state(user_data).guard([&](BinderBase& b) {
    if (!b.start(view(uri), view(local)) || !b.wants_attributes()) return;
    // Five pointers per attribute: local name, prefix, URI, value, value end.
    // SAX2 hands '&' in a value on as the reference "&#38;" (libxml2 leaves
    // entities to the application without XML_PARSE_NOENT): an Atom next
    // link's query needs it replaced. The value is well-formed by then.
    for (int i = 0; i < nb_attributes; ++i) {
      const xmlChar* const* a = attributes + 5 * i;
      std::string_view value = view(a[3], a[4]);
      if (value.find('&') != std::string_view::npos)
        value = char_data(value, CharData::attribute, state(user_data).scratch, kLibrary, -1);
      b.attribute(view(a[2]), view(a[0]), value);
    }
  });
}

void on_end(void* user_data, const xmlChar*, const xmlChar*, const xmlChar*) {
  state(user_data).guard([](BinderBase& b) { b.end(); });
}

void on_text(void* user_data, const xmlChar* chars, int len) {
  state(user_data).guard([&](BinderBase& b) { b.text(view(chars, chars + len)); });
}

xmlSAXHandler make_handler(bool bind) {
  xmlSAXHandler h{};
  h.initialized = XML_SAX2_MAGIC;  // namespace-aware SAX2 callbacks
  h.serror = libxml2::ReusedContext::on_error;
  if (bind) {
    h.startElementNs = on_start;
    h.endElementNs = on_end;
    h.characters = on_text;
    h.cdataBlock = on_text;
    h.ignorableWhitespace = on_text;  // a string value may be all blanks
  }
  return h;
}

const xmlSAXHandler kBindHandler = make_handler(true);
const xmlSAXHandler kEmptyHandler = make_handler(false);  // parse_only

template <class Shape>
class Libxml2SaxDecoder : public DecoderFor<Libxml2SaxDecoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    Binder<T> binder(shape_of(Shape::kFormat), rows, this->page_out());
    parse(input, kBindHandler, &binder);
    binder.finish();
  }
  // Returns the line the parse ended on (libxml2 counts lines as it reads).
  std::size_t parse_only(std::string_view input) final {
    parse(input, kEmptyHandler, nullptr);
    return static_cast<std::size_t>(xmlSAX2GetLineNumber(ctxt_.get()));
  }

 private:
  void parse(std::string_view input, const xmlSAXHandler& handler, BinderBase* binder) {
    const auto [xml, bom] = open_document(kLibrary, input);
    xmlParserCtxtPtr ctxt = ctxt_.get();
    SaxState state{binder, ctxt, nullptr, {}};
    *ctxt->sax = handler;  // the context owns its own copy of the handler
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
