// Poco's XML library: the SAX2 decoder (Poco::XML::SAXParser, namespace-aware,
// over the system's expat) feeds the shared binder from a ContentHandler; the
// DOM decoder (the same SAX parse building Poco's DOM through a DOMBuilder,
// as Poco::XML::DOMParser does, behind a depth limit) walks its Document with
// walk_dom; the encoder writes through Poco::XML::XMLWriter into the caller's
// string.
//
// Security (docs/hostile-input.md): external general and parameter entities
// off, so no DTD or external entity is read (and open_document() refuses a
// DOCTYPE); internal entities would expand under expat's billion-laughs
// accounting (2.4+), which Poco leaves at its defaults.
#include <Poco/AutoPtr.h>
#include <Poco/DOM/Attr.h>
#include <Poco/DOM/DOMBuilder.h>
#include <Poco/DOM/Document.h>
#include <Poco/DOM/Element.h>
#include <Poco/DOM/NamedNodeMap.h>
#include <Poco/SAX/Attributes.h>
#include <Poco/SAX/AttributesImpl.h>
#include <Poco/SAX/ContentHandler.h>
#include <Poco/SAX/Locator.h>
#include <Poco/SAX/SAXException.h>
#include <Poco/SAX/SAXParser.h>
#include <Poco/SAX/XMLFilterImpl.h>
#include <Poco/XML/XMLWriter.h>

#include <exception>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/prescan.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kSax = "poco-sax";
constexpr std::string_view kDom = "poco-dom";
using Poco::XML::XMLString;

// A std::streambuf that appends to a string: XMLWriter writes to a stream.
class StringBuf : public std::streambuf {
 public:
  explicit StringBuf(std::string& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out_.push_back(static_cast<char>(c));
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

// The Sink of writer_shapes.hpp over XMLWriter. XMLWriter takes an element
// with all its attributes at once, so an element is held until its first
// child or its end. Names go as qualified names with no namespace URI and
// the declarations as xmlns attributes, so XMLWriter writes them as given
// (with URIs it would pick its own prefixes).
class PocoSink {
 public:
  explicit PocoSink(Poco::XML::XMLWriter& w) : w_(w) {}
  void declaration(bool standalone) {
    w_.rawCharacters(standalone ? R"(<?xml version="1.0" encoding="utf-8" standalone="yes"?>)"
                                : R"(<?xml version="1.0" encoding="utf-8"?>)");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    flush();
    if (depth_ == names_.size()) names_.emplace_back();
    names_[depth_].assign(prefix);
    if (!prefix.empty()) names_[depth_] += ':';
    names_[depth_] += local;
    ++depth_;
    pending_ = true;
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    attribute(prefix.empty() ? std::string_view() : "xmlns", prefix.empty() ? "xmlns" : prefix, {},
              uri);
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    qname_.assign(prefix);
    if (!prefix.empty()) qname_ += ':';
    qname_ += local;
    attributes_.addAttribute({}, {}, qname_, "CDATA", XMLString(value));
  }
  void text(std::string_view v) {
    flush();
    w_.characters(v.data(), 0, static_cast<int>(v.size()));
  }
  void end() {
    flush();
    w_.endElement({}, {}, names_[--depth_]);
  }

 private:
  void flush() {
    if (!pending_) return;
    w_.startElement({}, {}, names_[depth_ - 1], attributes_);
    attributes_.clear();
    pending_ = false;
  }
  Poco::XML::XMLWriter& w_;
  std::vector<std::string> names_;  // of the open elements
  std::size_t depth_ = 0;
  bool pending_ = false;
  Poco::XML::AttributesImpl attributes_;
  std::string qname_;
};

template <class Shape>
class PocoEncoder : public EncoderFor<PocoEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    StringBuf buf(out);
    std::ostream stream(&buf);
    // One writer per document (the library's cost): it cannot be reset.
    Poco::XML::XMLWriter writer(stream, Poco::XML::XMLWriter::CANONICAL);
    writer.startFragment();
    PocoSink sink(writer);
    Shape::write(sink, rows, this->page());
    writer.endFragment();
  }
};

// Runs a Poco parse, its exceptions as DecodeError (Poco gives a line and a
// column, no byte offset).
template <class F>
auto translating_errors(std::string_view library, F parse) {
  try {
    return parse();
  } catch (const Poco::XML::SAXParseException& e) {
    throw DecodeError(library, e.message() + " (line " + std::to_string(e.getLineNumber()) +
                                   ", column " + std::to_string(e.getColumnNumber()) + ")");
  } catch (const Poco::Exception& e) {
    throw DecodeError(library, e.displayText());
  }
}

// Sets up a Poco SAX parser for untrusted input.
void configure(Poco::XML::SAXParser& p) {
  p.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACES, true);
  p.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACE_PREFIXES, false);
  p.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_GENERAL_ENTITIES, false);
  p.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_PARAMETER_ENTITIES, false);
}

// Poco's events into the binder. An exception must not unwind through
// expat's C frames below Poco: the first is kept, later events are ignored,
// and it is rethrown after the parse. B: the binder, or the canonical form
// (XmlDecoderFor).
template <class B>
class BinderHandler : public Poco::XML::ContentHandler {
 public:
  explicit BinderHandler(B* b) : binder(b) {}
  B* binder;
  std::exception_ptr failure;

  void startElement(const XMLString& uri, const XMLString& local, const XMLString&,
                    const Poco::XML::Attributes& atts) override {
    guard([&] {
      if (!binder->start(uri, local) || !binder->wants_attributes()) return;
      for (int i = 0, n = atts.getLength(); i < n; ++i)
        binder->attribute(atts.getURI(i), atts.getLocalName(i), atts.getValue(i));
    });
  }
  void endElement(const XMLString&, const XMLString&, const XMLString&) override {
    guard([&] { binder->end(); });
  }
  void characters(const Poco::XML::XMLChar ch[], int start, int length) override {
    guard([&] { binder->text(std::string_view(ch + start, static_cast<std::size_t>(length))); });
  }
  void ignorableWhitespace(const Poco::XML::XMLChar ch[], int start, int length) override {
    characters(ch, start, length);
  }
  void setDocumentLocator(const Poco::XML::Locator*) override {}
  void startDocument() override {}
  void endDocument() override {}
  void processingInstruction(const XMLString&, const XMLString&) override {}
  void startPrefixMapping(const XMLString&, const XMLString&) override {}
  void endPrefixMapping(const XMLString&) override {}
  void skippedEntity(const XMLString&) override {}

 private:
  template <class F>
  void guard(F f) {
    if (failure || !binder) return;
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
    }
  }
};

template <class Shape>
class PocoSaxDecoder : public XmlDecoderFor<PocoSaxDecoder<Shape>, Shape> {
 public:
  PocoSaxDecoder() { configure(parser_); }
  // The input's size: Poco's parse returns nothing of its own.
  std::size_t parse_only(std::string_view input) final {
    parse<BinderBase>(input, nullptr);
    return input.size();
  }

 private:
  friend XmlDecoderFor<PocoSaxDecoder, Shape>;
  // binder null: Poco calls the handler, which binds nothing.
  template <class B>
  void parse(std::string_view input, B* binder) {
    const Document doc = open_document(kSax, input);
    BinderHandler<B> handler(binder);
    parser_.setContentHandler(&handler);
    translating_errors(kSax, [&] { parser_.parseMemoryNP(doc.body.data(), doc.body.size()); });
    parser_.setContentHandler(nullptr);
    if (handler.failure) std::rethrow_exception(handler.failure);
  }
  Poco::XML::SAXParser parser_;
};

// Poco's DOM has no depth limit and frees a node's children recursively
// (AbstractContainerNode's destructor, two frames a level): a document
// 300,000 elements deep overflows the stack when it is released, whether it
// parsed or not (unclosed elements). This filter sits between the SAX parser
// and the DOMBuilder and passes nothing on below kMaxDepth, so the tree never
// grows deeper; it keeps where the limit was crossed, and the parse is refused
// once expat returns (an exception must not unwind through expat's frames).
class DepthLimit : public Poco::XML::XMLFilterImpl {
 public:
  using XMLFilterImpl::XMLFilterImpl;
  void reset() {
    depth_ = 0;
    exceeded_at_.clear();
  }
  // Empty while the limit holds, else "line L, column C".
  const std::string& exceeded_at() const { return exceeded_at_; }

  void setDocumentLocator(const Poco::XML::Locator* locator) override {
    locator_ = locator;
    XMLFilterImpl::setDocumentLocator(locator);
  }
  void startElement(const XMLString& uri, const XMLString& local, const XMLString& qname,
                    const Poco::XML::Attributes& atts) override {
    if (++depth_ <= kMaxDepth)
      XMLFilterImpl::startElement(uri, local, qname, atts);
    else if (exceeded_at_.empty())
      exceeded_at_ = locator_ ? "line " + std::to_string(locator_->getLineNumber()) + ", column " +
                                    std::to_string(locator_->getColumnNumber())
                              : "unknown position";
  }
  void endElement(const XMLString& uri, const XMLString& local, const XMLString& qname) override {
    if (depth_-- <= kMaxDepth) XMLFilterImpl::endElement(uri, local, qname);
  }
  void characters(const Poco::XML::XMLChar ch[], int start, int length) override {
    if (depth_ <= kMaxDepth) XMLFilterImpl::characters(ch, start, length);
  }
  void ignorableWhitespace(const Poco::XML::XMLChar ch[], int start, int length) override {
    if (depth_ <= kMaxDepth) XMLFilterImpl::ignorableWhitespace(ch, start, length);
  }
  void processingInstruction(const XMLString& target, const XMLString& data) override {
    if (depth_ <= kMaxDepth) XMLFilterImpl::processingInstruction(target, data);
  }
  void skippedEntity(const XMLString& name) override {
    if (depth_ <= kMaxDepth) XMLFilterImpl::skippedEntity(name);
  }

 private:
  const Poco::XML::Locator* locator_ = nullptr;
  int depth_ = 0;
  std::string exceeded_at_;
};

// Poco's DOM for walk_dom: namespace-aware nodes, so no PrefixScope.
struct PocoDom {
  using Node = const Poco::XML::Node*;
  static bool is_element(Node n) { return n->nodeType() == Poco::XML::Node::ELEMENT_NODE; }
  static bool is_text(Node n) {
    const auto type = n->nodeType();
    return type == Poco::XML::Node::TEXT_NODE || type == Poco::XML::Node::CDATA_SECTION_NODE;
  }
  static Node first_child(Node n) { return n->firstChild(); }
  static Node next_sibling(Node n) { return n->nextSibling(); }
  static std::string_view uri(Node n) { return n->namespaceURI(); }
  static std::string_view local(Node n) { return n->localName(); }
  static std::string_view value(Node n) { return n->getNodeValue(); }
  // The attributes as Poco hands them out: a NamedNodeMap made per call.
  template <class F>
  static void attributes(Node n, F f) {
    const Poco::AutoPtr<Poco::XML::NamedNodeMap> map = n->attributes();
    for (unsigned long i = 0, count = map->length(); i < count; ++i) {
      const auto* a = static_cast<const Poco::XML::Attr*>(map->item(i));
      f(a->namespaceURI(), a->localName(), a->value());
    }
  }
};

template <class Shape>
class PocoDomDecoder : public XmlDecoderFor<PocoDomDecoder<Shape>, Shape> {
 public:
  PocoDomDecoder() { configure(parser_); }
  // The document element's local name length.
  std::size_t parse_only(std::string_view input) final {
    return load(input)->documentElement()->localName().size();
  }

 private:
  friend XmlDecoderFor<PocoDomDecoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    const Poco::AutoPtr<Poco::XML::Document> doc = load(input);
    walk_dom<PocoDom>(doc->documentElement(), *sink);
  }
  // What DOMParser::parseMemory does (a DOMBuilder over the SAX parser, made
  // per parse), with the depth limit between the two.
  Poco::AutoPtr<Poco::XML::Document> load(std::string_view input) {
    const Document doc = open_document(kDom, input);
    depth_limit_.reset();
    Poco::AutoPtr<Poco::XML::Document> tree;
    try {
      tree = translating_errors(kDom, [&] {
        Poco::XML::DOMBuilder builder(depth_limit_);
        return Poco::AutoPtr<Poco::XML::Document>(
            builder.parseMemoryNP(doc.body.data(), doc.body.size()));
      });
    } catch (const DecodeError&) {
      if (depth_limit_.exceeded_at().empty()) throw;
    }
    // Before any later error: the limit was crossed first.
    if (!depth_limit_.exceeded_at().empty())
      throw DecodeError(kDom, "elements nested deeper than " + std::to_string(kMaxDepth) + " (" +
                                  depth_limit_.exceeded_at() + ")");
    return tree;
  }
  Poco::XML::SAXParser parser_;
  DepthLimit depth_limit_{&parser_};
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, poco, wb::xml::PocoEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, poco, wb::xml::PocoEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, poco, wb::xml::PocoEncoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, poco_sax, wb::xml::PocoSaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, poco_sax, wb::xml::PocoSaxDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, poco_sax, wb::xml::PocoSaxDecoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, poco_dom, wb::xml::PocoDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, poco_dom, wb::xml::PocoDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, poco_dom, wb::xml::PocoDomDecoder<wb::xml::Soap>)
