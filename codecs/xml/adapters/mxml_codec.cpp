// Mini-XML: the encoder builds a tree (mxmlNewElement, mxmlElementSetAttr,
// mxmlNewOpaque) and saves it with mxmlSaveString; the DOM decoder keeps the
// tree of a load and walks it through PrefixScope (Mini-XML has no namespace
// support), the SAX decoder feeds the binder from the load's callback and
// resolves prefixes with the same PrefixScope as elements open. Both load
// through mxml::load() (mxml_common.hpp), which adds the checks Mini-XML
// leaves out. Text keeps CR as Mini-XML reads it: the adapter normalises line
// ends (char_data.hpp) where a CR occurs, as XML requires.
#include <cstring>
#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/mxml_common.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/char_data.hpp"
#include "codecs/xml/prefix_scope.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

class MxmlSink {
 public:
  void declaration(bool standalone) {
    // Mini-XML writes a directive as an element named after its content.
    open(standalone ? R"(?xml version="1.0" encoding="utf-8" standalone="yes"?)"
                    : R"(?xml version="1.0" encoding="utf-8"?)");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    open(qname(prefix, local));
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    mxmlElementSetAttr(node_, prefix.empty() ? "xmlns" : qname("xmlns", prefix), z(uri));
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    mxmlElementSetAttr(node_, qname(prefix, local), z(value));
  }
  // Mini-XML escapes & < > " but writes no character references, and a
  // parser turns a literal CR into LF: refuse it rather than write a
  // different string.
  void text(std::string_view v) {
    if (v.find('\r') != std::string_view::npos)
      throw std::invalid_argument("mxml: the writer cannot write a carriage return");
    mxmlNewOpaque(node_, z(v));
  }
  void end() { node_ = mxmlGetParent(node_); }
  mxml::Tree take() { return std::move(top_); }

 private:
  void open(const char* name) {
    node_ = mxmlNewElement(node_ ? node_ : MXML_NO_PARENT, name);
    if (!top_) top_.reset(node_);
  }
  const char* qname(std::string_view prefix, std::string_view local) {
    name_.assign(prefix);
    if (!prefix.empty()) name_ += ':';
    name_ += local;
    return name_.c_str();
  }
  const char* z(std::string_view v) {
    value_.assign(v);
    return value_.c_str();
  }
  mxml::Tree top_;  // the declaration, else the document element
  mxml_node_t* node_ = nullptr;
  std::string name_, value_;
};

template <class Shape>
class MxmlEncoder : public EncoderFor<MxmlEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    mxml::prepare_thread();
    MxmlSink sink;
    Shape::write(sink, rows, this->page());
    const mxml::Tree tree = sink.take();
    // mxmlSaveString returns the whole length and writes what fits: a
    // second call when out's capacity was short (the first payload only).
    out.resize(std::max(out.capacity(), std::size_t{64}));
    int n = mxmlSaveString(tree.get(), out.data(), static_cast<int>(out.size()), MXML_NO_CALLBACK);
    if (n < 0) throw std::runtime_error("mxml: mxmlSaveString failed");
    if (static_cast<std::size_t>(n) >= out.size()) {
      out.resize(static_cast<std::size_t>(n) + 1);
      n = mxmlSaveString(tree.get(), out.data(), static_cast<int>(out.size()), MXML_NO_CALLBACK);
    }
    out.resize(static_cast<std::size_t>(n));
  }
};

constexpr std::string_view kDom = token::decoder_atom_mxml_dom;
constexpr std::string_view kSax = token::decoder_atom_mxml_sax;

// Mini-XML's nodes for PrefixScope; names and values are NUL-terminated.
template <std::string_view const& Library>
struct MxmlDom {
  using Node = mxml_node_t*;
  static constexpr std::string_view kLibrary = Library;
  static bool is_element(Node n) { return mxmlGetType(n) == MXML_ELEMENT && !mxml::is_markup(n); }
  static bool is_text(Node n) { return mxmlGetType(n) == MXML_OPAQUE || mxml::is_cdata(n); }
  static Node first_child(Node n) { return mxmlGetFirstChild(n); }
  static Node next_sibling(Node n) { return mxmlGetNextSibling(n); }
  // Text or CDATA, line ends normalised.
  std::string_view value(Node n) {
    const char* v = mxmlGetType(n) == MXML_OPAQUE ? mxmlGetOpaque(n) : mxmlGetCDATA(n);
    if (!std::strchr(v, '\r')) return v;
    return char_data(v, CharData::cdata, text, kLibrary, -1);
  }
  static const char* name(Node n) { return mxmlGetElement(n); }
  using AttributeName = const char*;
  using AttributeValue = const char*;
  template <class F>
  static void for_each_attribute(Node n, F f) {
    const int count = mxmlElementGetAttrCount(n);
    for (int i = 0; i < count; ++i) {
      const char* name = nullptr;
      const char* value = mxmlElementGetAttrByIndex(n, i, &name);
      f(name, value);
    }
  }
  static bool same(Node a, Node b) { return a == b; }
  static long long offset(Node) { return -1; }  // Mini-XML counts lines only
  std::string text;
};

// Keeps every node of the load: the DOM.
struct Retain {
  void on(mxml_node_t* n, mxml_sax_event_t e) {
    if (e != MXML_SAX_ELEMENT_CLOSE) mxmlRetain(n);
  }
};

template <class Shape>
class MxmlDomDecoder : public XmlDecoderFor<MxmlDomDecoder<Shape>, Shape> {
 public:
  // The document element's name length.
  std::size_t parse_only(std::string_view input) final {
    mxml_node_t* root = nullptr;
    const mxml::Tree tree = load(input, root);
    return std::strlen(mxmlGetElement(root));
  }

 private:
  friend XmlDecoderFor<MxmlDomDecoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    mxml_node_t* root = nullptr;
    const mxml::Tree tree = load(input, root);
    walk_dom(dom_, root, *sink);
  }
  mxml::Tree load(std::string_view input, mxml_node_t*& root) {
    const auto [body, skipped] = open_document(kDom, input);
    Retain retain;
    mxml::Tree tree = mxml::load(kDom, buffer_, body, skipped, retain, root);
    dom_.reset(skipped);
    return tree;
  }
  std::string buffer_;
  PrefixScope<MxmlDom<kDom>> dom_;
};

// Binds as the load reads: elements are alive from their open to their close
// event, which is as long as PrefixScope keeps their declarations. B: the
// binder, or the canonical form (XmlDecoderFor).
template <class B>
class SaxBinding {
 public:
  SaxBinding(PrefixScope<MxmlDom<kSax>>& scope, B* binder) : scope_(scope), binder_(binder) {}
  void on(mxml_node_t* n, mxml_sax_event_t e) {
    ++events;
    if (!binder_) return;
    switch (e) {
      case MXML_SAX_ELEMENT_OPEN: {
        const QNames names = scope_.enter(n);
        if (binder_->start(names.uri, names.local) && binder_->wants_attributes())
          scope_.attributes(
              n,
              [&](std::string_view u, std::string_view l, std::string_view v) {
                binder_->attribute(u, l, v);
              },
              [&](std::string_view l) { return binder_->may_use_attribute(l); });
        break;
      }
      case MXML_SAX_ELEMENT_CLOSE:
        binder_->end();
        scope_.leave();
        break;
      case MXML_SAX_DATA:
      case MXML_SAX_CDATA:
        if (binder_->wants_text()) binder_->text(scope_.value(n));
        break;
      default:  // comments, directives
        break;
    }
  }

 public:
  std::size_t events = 0;

 private:
  PrefixScope<MxmlDom<kSax>>& scope_;
  B* binder_;
};

template <class Shape>
class MxmlSaxDecoder : public XmlDecoderFor<MxmlSaxDecoder<Shape>, Shape> {
 public:
  // The number of SAX events.
  std::size_t parse_only(std::string_view input) final { return parse<BinderBase>(input, nullptr); }

 private:
  friend XmlDecoderFor<MxmlSaxDecoder, Shape>;
  // binder null: no binding, the load only reads and checks the document.
  template <class B>
  std::size_t parse(std::string_view input, B* binder) {
    const auto [body, skipped] = open_document(kSax, input);
    scope_.reset(skipped);
    SaxBinding<B> binding(scope_, binder);
    mxml_node_t* root = nullptr;
    const mxml::Tree rest = mxml::load(kSax, buffer_, body, skipped, binding, root);
    return binding.events;
  }
  std::string buffer_;
  PrefixScope<MxmlDom<kSax>> scope_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, mxml, wb::xml::MxmlEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, mxml, wb::xml::MxmlEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, mxml, wb::xml::MxmlEncoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, mxml_dom, wb::xml::MxmlDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, mxml_dom, wb::xml::MxmlDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, mxml_dom, wb::xml::MxmlDomDecoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, mxml_sax, wb::xml::MxmlSaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, mxml_sax, wb::xml::MxmlSaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, mxml_sax, wb::xml::MxmlSaxDecoder<wb::xml::Soap>)
