// expat: a streaming parser that feeds the shared binder from its callbacks.
// Namespace processing is on (XML_ParserCreateNS), so expat hands over element
// and attribute names as "uri<sep>local" and consumes the xmlns attributes
// itself; the adapter only splits the names. Parser setup and security:
// expat_common.hpp.
#include <exception>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/expat_common.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = token::decoder_atom_expat;

// The user data of one parse. Binder exceptions must not unwind through
// expat's C frames: a callback keeps the exception and stops the parser, and
// it is rethrown once XML_Parse has returned. B: the binder, or the
// canonical form (XmlDecoderFor).
template <class B>
struct State {
  B* binder;
  XML_Parser parser;
  std::exception_ptr failure;

  template <class F>
  static void guard(void* user_data, F f) {
    State& s = *static_cast<State*>(user_data);
    if (s.failure) return;
    try {
      f(*s.binder);
    } catch (...) {
      s.failure = std::current_exception();
      XML_StopParser(s.parser, XML_FALSE);
    }
  }
};

template <class B>
void on_start(void* user_data, const XML_Char* name, const XML_Char** atts) {
  State<B>::guard(user_data, [&](B& b) {
    const auto [uri, local] = expat::split(name);
    if (!b.start(uri, local) || !b.wants_attributes()) return;
    for (const XML_Char** a = atts; *a; a += 2) {
      const auto [auri, alocal] = expat::split(a[0]);
      b.attribute(auri, alocal, a[1]);
    }
  });
}

template <class B>
void on_end(void* user_data, const XML_Char*) {
  State<B>::guard(user_data, [](B& b) { b.end(); });
}

// Character data, CDATA content and resolved references, in chunks.
template <class B>
void on_text(void* user_data, const XML_Char* s, int len) {
  State<B>::guard(user_data, [&](B& b) { b.text(std::string_view(s, len)); });
}

template <class Shape>
class ExpatDecoder : public XmlDecoderFor<ExpatDecoder<Shape>, Shape> {
 public:
  // Returns the line the parse ended on (expat counts lines as it tokenizes).
  std::size_t parse_only(std::string_view input) final {
    parse<BinderBase>(input, nullptr);
    return XML_GetCurrentLineNumber(parser_.get());
  }

 private:
  friend XmlDecoderFor<ExpatDecoder, Shape>;
  // binder null: no handlers, expat only tokenizes and checks the document.
  template <class B>
  void parse(std::string_view input, B* binder) {
    const Document doc = open_document(kLibrary, input);
    State<B> state{binder, parser_.get(), nullptr};
    const XML_Parser p = parser_.reset(&state);
    if (binder) {
      XML_SetElementHandler(p, on_start<B>, on_end<B>);
      XML_SetCharacterDataHandler(p, on_text<B>);
    }
    parser_.parse(kLibrary, doc.body, doc.skipped);
    if (state.failure) std::rethrow_exception(state.failure);
  }

  expat::Parser parser_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_DECODER(atom, expat, wb::xml::ExpatDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, expat, wb::xml::ExpatDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, expat, wb::xml::ExpatDecoder<wb::xml::Soap>)
