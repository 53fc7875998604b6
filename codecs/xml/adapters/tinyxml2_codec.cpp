// TinyXML-2: the encoder streams through XMLPrinter (compact, into the
// printer's buffer, then copied out); the decoder parses an XMLDocument and
// walks it through PrefixScope, since TinyXML-2 has no namespace support.
//
// What TinyXML-2 checks: structure, element depth (at most
// TINYXML2_MAX_ELEMENT_DEPTH, 100, so no deep recursion on hostile input),
// closing tags and duplicate attributes. It never reads a DTD (a DOCTYPE is
// kept as an unknown node). It does not check UTF-8, XML character ranges or
// references, and misreads a bad reference (findings.md), so the adapter runs
// the pre-scan (prescan.hpp: references, control characters, '<' in
// attribute values, any DOCTYPE) first, and adds the single-root rule
// (document_element.hpp). Its parse drops white space that runs up to markup
// ("<v> </v>" has no text).
#include <tinyxml2.h>

#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/document_element.hpp"
#include "codecs/xml/prefix_scope.hpp"
#include "codecs/xml/prescan.hpp"
#include "codecs/xml/prolog.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kDecoder = token::decoder_atom_tinyxml2;

// The Sink of writer_shapes.hpp over XMLPrinter's streaming calls, which take
// NUL-terminated strings: names and values go through reused buffers.
class PrinterSink {
 public:
  explicit PrinterSink(tinyxml2::XMLPrinter& p) : p_(p) {}
  void declaration(bool standalone) {
    p_.PushDeclaration(standalone ? R"(xml version="1.0" encoding="utf-8" standalone="yes")"
                                  : R"(xml version="1.0" encoding="utf-8")");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    // The printer keeps the name's pointer until CloseElement: the names
    // stay alive in a stack of their own (a deque: pushing moves none).
    if (depth_ == names_.size()) names_.emplace_back();
    qname(names_[depth_], prefix, local);
    p_.OpenElement(names_[depth_++].c_str(), true);
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    qname(name_, prefix.empty() ? std::string_view() : "xmlns", prefix.empty() ? "xmlns" : prefix);
    p_.PushAttribute(name_.c_str(), z(uri));
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    qname(name_, prefix, local);
    p_.PushAttribute(name_.c_str(), z(value));
  }
  // The printer escapes & < > but writes no character references, and a
  // parser turns a literal CR into LF: refuse it rather than write a
  // different string.
  void text(std::string_view v) {
    if (v.find('\r') != std::string_view::npos)
      throw std::invalid_argument("tinyxml2: the printer cannot write a carriage return");
    p_.PushText(z(v));
  }
  void end() {
    --depth_;
    p_.CloseElement(true);
  }

 private:
  static void qname(std::string& out, std::string_view prefix, std::string_view local) {
    out.assign(prefix);
    if (!prefix.empty()) out += ':';
    out += local;
  }
  const char* z(std::string_view v) {
    value_.assign(v);
    return value_.c_str();
  }
  tinyxml2::XMLPrinter& p_;
  std::deque<std::string> names_;
  std::size_t depth_ = 0;
  std::string name_, value_;
};

template <class Shape>
class Tinyxml2Encoder : public EncoderFor<Tinyxml2Encoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    printer_->ClearBuffer();
    PrinterSink sink(*printer_);
    try {
      Shape::write(sink, rows, this->page());
    } catch (...) {
      printer_.emplace(nullptr, true);  // its stack of open elements cannot be reset
      throw;
    }
    out.assign(printer_->CStr(), static_cast<std::size_t>(printer_->CStrSize() - 1));  // its NUL
  }

 private:
  std::optional<tinyxml2::XMLPrinter> printer_{std::in_place, nullptr, true};
};

using XmlNode = const tinyxml2::XMLNode*;

// TinyXML-2's nodes for PrefixScope. Names and values are NUL-terminated and
// translated (references) the first time they are read.
struct TinyDom {
  using Node = XmlNode;
  static constexpr std::string_view kLibrary = kDecoder;
  static bool is_element(Node n) { return n->ToElement() != nullptr; }
  static bool is_text(Node n) { return n->ToText() != nullptr; }  // CDATA too
  static Node first_child(Node n) { return n->FirstChild(); }
  static Node next_sibling(Node n) { return n->NextSibling(); }
  static std::string_view value(Node n) { return n->Value(); }
  static const char* name(Node n) { return n->Value(); }
  using AttributeName = const char*;
  using AttributeValue = const char*;
  template <class F>
  static void for_each_attribute(Node n, F f) {
    for (const tinyxml2::XMLAttribute* a = n->ToElement()->FirstAttribute(); a; a = a->Next())
      f(a->Name(), a->Value());
  }
  static bool same(Node a, Node b) { return a == b; }
  static long long offset(Node) { return -1; }  // TinyXML-2 keeps line numbers only
};

TopLevel top_level(XmlNode n) {
  if (n->ToElement()) return TopLevel::element;
  if (n->ToComment() || n->ToDeclaration()) return TopLevel::allowed;
  return TopLevel::forbidden;  // text (white space is dropped), a DOCTYPE (unknown)
}

template <class Shape>
class Tinyxml2Decoder : public XmlDecoderFor<Tinyxml2Decoder<Shape>, Shape> {
 public:
  // The document element's name length.
  std::size_t parse_only(std::string_view input) final {
    return std::char_traits<char>::length(load(input)->Value());
  }

 private:
  friend XmlDecoderFor<Tinyxml2Decoder, Shape>;
  template <class B>
  void parse(std::string_view input, B* sink) {
    const XmlNode root = load(input);
    walk_dom(dom_, root, *sink);
  }
  XmlNode load(std::string_view input) {
    const auto [body, skipped] = open_document(kDecoder, input);
    // References and characters, which TinyXML-2 does not check, checked
    // first: a bare '&' or an unknown entity after a reference that shrank
    // its text reads as a stale byte of that text (findings.md).
    reject_unbounded(kDecoder, body, marks_, skipped, Characters::scan_checks);
    // Parse copies the bytes (its length argument: no terminator needed).
    if (doc_.Parse(body.data(), body.size()) != tinyxml2::XML_SUCCESS)
      throw DecodeError(kDecoder, doc_.ErrorStr());
    dom_.reset(skipped);
    return document_element(
        kDecoder, static_cast<XmlNode>(doc_.FirstChild()),
        [](XmlNode n) { return n->NextSibling(); }, top_level, TinyDom::offset, skipped);
  }
  tinyxml2::XMLDocument doc_{true, tinyxml2::PRESERVE_WHITESPACE};
  SpecialBytes marks_;
  PrefixScope<TinyDom> dom_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, tinyxml2, wb::xml::Tinyxml2Encoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, tinyxml2, wb::xml::Tinyxml2Encoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, tinyxml2, wb::xml::Tinyxml2Encoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, tinyxml2, wb::xml::Tinyxml2Decoder<wb::xml::Atom>)
WB_DEFINE_DECODER(atom_v2, tinyxml2, wb::xml::Tinyxml2Decoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, tinyxml2, wb::xml::Tinyxml2Decoder<wb::xml::Soap>)
