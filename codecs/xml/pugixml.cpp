// pugixml: the encoder builds a DOM through the Sink and saves it; the decoder
// loads a DOM and walks it. pugixml has no namespace support (names are the
// raw qualified names), so the walk policy keeps the in-scope xmlns
// declarations itself and resolves prefixes to URIs.
#include <pugixml.hpp>

#include <string>
#include <utility>
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/xml/binder.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

constexpr std::string_view kLibrary = "pugixml-dom";
// parse_default keeps CDATA, resolves character and the five predefined entity
// references, and never reads a DTD. Whitespace-only text is dropped between
// elements (indentation) but kept as an element's only child (a value " ").
constexpr unsigned kParseOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;

class PugiSink {
 public:
  PugiSink(pugi::xml_document& doc, std::string& name) : node_(doc), name_(name) {}
  void declaration(bool standalone) {
    pugi::xml_node d = node_.append_child(pugi::node_declaration);
    d.append_attribute("version").set_value("1.0");
    d.append_attribute("encoding").set_value("utf-8");
    if (standalone) d.append_attribute("standalone").set_value("yes");
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    node_ = node_.append_child(qname(prefix, local));
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    set(node_.append_attribute(prefix.empty() ? "xmlns" : qname("xmlns", prefix)), uri);
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    set(node_.append_attribute(qname(prefix, local)), value);
  }
  void text(std::string_view v) {
    node_.append_child(pugi::node_pcdata).set_value(v.data(), v.size());
  }
  void end() { node_ = node_.parent(); }

 private:
  static void set(pugi::xml_attribute a, std::string_view v) { a.set_value(v.data(), v.size()); }
  // pugixml takes NUL-terminated names: one reused buffer, no allocation per element.
  const char* qname(std::string_view prefix, std::string_view local) {
    name_.assign(prefix);
    if (!prefix.empty()) name_ += ':';
    name_ += local;
    return name_.c_str();
  }
  pugi::xml_node node_;
  std::string& name_;
};

class StringWriter : public pugi::xml_writer {
 public:
  explicit StringWriter(std::string& out) : out_(out) {}
  void write(const void* data, size_t size) override {
    out_.append(static_cast<const char*>(data), size);
  }

 private:
  std::string& out_;
};

template <class Shape>
class PugixmlEncoder : public EncoderFor<PugixmlEncoder<Shape>> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    doc_.reset();
    PugiSink sink(doc_, name_);
    Shape::write(sink, rows);
    out.clear();
    StringWriter writer(out);
    // The declaration, when the shape has one, is a node of the document;
    // pugixml must not add its own to soap.
    doc_.save(writer, "", pugi::format_raw | pugi::format_no_declaration, pugi::encoding_utf8);
  }

 private:
  pugi::xml_document doc_;
  std::string name_;
};

// walk_dom policy with a namespace scope: (prefix, uri) views into the DOM's
// own strings, pushed per element by enter() and popped by leave().
class PugiPolicy {
 public:
  using Node = pugi::xml_node;
  void reset(long long base) {
    bindings_.clear();
    marks_.clear();
    base_ = base;
  }
  static bool is_element(Node n) { return n.type() == pugi::node_element; }
  static bool is_text(Node n) {
    return n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata;
  }
  static Node first_child(Node n) { return n.first_child(); }
  static Node next_sibling(Node n) { return n.next_sibling(); }
  static std::string_view value(Node n) { return n.value(); }
  static std::string_view local(Node n) { return split(n.name()).second; }
  std::string_view uri(Node n) const { return resolve(split(n.name()).first, n); }
  void enter(Node n) {
    marks_.push_back(bindings_.size());
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
      const auto [prefix, local] = split(a.name());
      if (prefix.empty() && local == "xmlns")
        bindings_.emplace_back(std::string_view(), a.value());
      else if (prefix == "xmlns")
        bindings_.emplace_back(local, a.value());
    }
  }
  void leave() {
    bindings_.resize(marks_.back());
    marks_.pop_back();
  }
  template <class F>
  void attributes(Node n, F f) const {
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
      const auto [prefix, local] = split(a.name());
      if (prefix == "xmlns" || (prefix.empty() && local == "xmlns")) continue;
      // An unprefixed attribute is in no namespace, whatever the default is.
      f(prefix.empty() ? std::string_view() : resolve(prefix, n), local, a.value());
    }
  }

 private:
  static std::pair<std::string_view, std::string_view> split(std::string_view qname) {
    const std::size_t colon = qname.find(':');
    if (colon == std::string_view::npos) return {{}, qname};
    return {qname.substr(0, colon), qname.substr(colon + 1)};
  }
  std::string_view resolve(std::string_view prefix, Node n) const {
    if (prefix == "xml") return kXmlNs;
    for (auto b = bindings_.rbegin(); b != bindings_.rend(); ++b)
      if (b->first == prefix) return b->second;
    if (prefix.empty()) return {};  // no default namespace in scope
    const ptrdiff_t at = n.offset_debug();
    throw DecodeError(kLibrary, "undeclared namespace prefix '" + std::string(prefix) + "'",
                      at < 0 ? -1 : base_ + at);
  }
  std::vector<std::pair<std::string_view, std::string_view>> bindings_;
  std::vector<std::size_t> marks_;
  long long base_ = 0;
};

template <class Shape>
class PugixmlDomDecoder : public DecoderFor<PugixmlDomDecoder<Shape>> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    policy_.reset(load(input));
    Binder<T> binder(shape_of(Shape::kFormat), rows);
    walk_dom(policy_, doc_.document_element(), binder);
    binder.finish();
  }
  void parse_only(std::string_view input) override { load(input); }

 private:
  // load_buffer copies the input (load_buffer_inplace would need a mutable
  // copy made by us, the same cost); returns the bytes skipped before it.
  long long load(std::string_view input) {
    const std::string_view body = skip_bom(input);
    const long long skipped = static_cast<long long>(input.size() - body.size());
    const pugi::xml_parse_result r = doc_.load_buffer(body.data(), body.size(), kParseOptions);
    if (!r) throw DecodeError(kLibrary, r.description(), skipped + r.offset);
    return skipped;
  }
  pugi::xml_document doc_;
  PugiPolicy policy_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, pugixml, wb::xml::PugixmlEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(soap, pugixml, wb::xml::PugixmlEncoder<wb::xml::Soap>)
WB_DEFINE_DECODER(atom, pugixml_dom, wb::xml::PugixmlDomDecoder<wb::xml::Atom>)
WB_DEFINE_DECODER(soap, pugixml_dom, wb::xml::PugixmlDomDecoder<wb::xml::Soap>)
