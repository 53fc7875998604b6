// Shared by the libxml2 adapters (writer, DOM, reader, SAX): one-time
// initialisation, quiet error capture, views of libxml2's UTF-8 strings and
// walk_dom's view of a tree.
#pragma once

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::xml::libxml2 {

// Parse options of every decoder: never fetch anything from the network, and
// none of NOENT / DTDLOAD / HUGE, so entities stay unexpanded, no DTD is
// loaded and libxml2's entity-amplification limits stay on.
inline constexpr int kParseOptions = XML_PARSE_NONET;

inline void ignore_generic_error(void*, const char*, ...) {}
inline void ignore_structured_error(void*, xmlErrorPtr) {}

// xmlInitParser once per process; libxml2's error handlers are thread-local
// globals in 2.9, so each thread that calls in silences its own: a benchmark
// must not print every rejected payload to stderr. Cheap after the first call.
inline void prepare_thread() {
  static const bool initialised = (xmlInitParser(), true);
  thread_local const bool quiet =
      (xmlSetGenericErrorFunc(nullptr, ignore_generic_error),
       xmlSetStructuredErrorFunc(nullptr, ignore_structured_error), true);
  (void)initialised;
  (void)quiet;
}

inline std::string_view view(const xmlChar* s) {
  return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
}
inline std::string_view view(const xmlChar* begin, const xmlChar* end) {
  return {reinterpret_cast<const char*>(begin), static_cast<std::size_t>(end - begin)};
}

// walk_dom's view of a libxml2 tree (the DOM decoder's, the WCF infoset's). Entity reference nodes
// (only user entities of an internal DTD, which stay unexpanded) are neither: skipped.
struct TreePolicy {
  using Node = xmlNodePtr;
  static bool is_element(Node n) { return n->type == XML_ELEMENT_NODE; }
  static bool is_text(Node n) {
    return n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE;
  }
  static Node first_child(Node n) { return n->children; }
  static Node next_sibling(Node n) { return n->next; }
  static std::string_view uri(Node n) { return n->ns ? view(n->ns->href) : std::string_view(); }
  static std::string_view local(Node n) { return view(n->name); }
  static std::string_view value(Node n) { return view(n->content); }
  template <class F>
  static void attributes(Node n, F f) {
    for (xmlAttrPtr a = n->properties; a; a = a->next) {
      const std::string_view uri = a->ns ? view(a->ns->href) : std::string_view();
      const xmlNode* t = a->children;
      if (!t || (t->type == XML_TEXT_NODE && !t->next)) {  // the usual single text child
        f(uri, view(a->name), t ? view(t->content) : std::string_view());
        continue;
      }
      const std::unique_ptr<xmlChar, decltype(xmlFree)> joined(
          xmlNodeListGetString(n->doc, a->children, 1), xmlFree);
      f(uri, view(a->name), view(joined.get()));
    }
  }
};

// libxml2 takes int sizes.
inline int input_size(std::string_view library, std::string_view xml) {
  if (xml.size() > static_cast<std::size_t>(INT_MAX))
    throw DecodeError(library, "payload larger than libxml2 accepts (2 GiB)");
  return static_cast<int>(xml.size());
}

// The first error of a parse. libxml2 keeps going after a fatal error and
// reports one "Premature end of data" per open element; the first is the cause.
// Namespace errors (an undeclared prefix) are errors too: a namespace-aware
// decoder cannot bind such a document.
class FirstError {
 public:
  void clear() { failed_ = false; }
  bool failed() const { return failed_; }
  // An xmlStructuredErrorFunc whose data is a FirstError*.
  static void record(void* self, xmlErrorPtr e) { static_cast<FirstError*>(self)->keep(*e); }
  void keep(const xmlError& e) {
    if (failed_ || e.level < XML_ERR_ERROR) return;
    failed_ = true;
    message_ = e.message ? e.message : "parse error";
    while (!message_.empty() && (message_.back() == '\n' || message_.back() == ' '))
      message_.pop_back();
    line_ = e.line;
    column_ = e.int2;
    offset_ = -1;
    // Parser and namespace errors carry the parser context: its byte position.
    // An error inside an entity's replacement text comes from a nested context
    // (depth > 0) whose positions count within that text, not the payload.
    const bool parser = e.domain == XML_FROM_PARSER || e.domain == XML_FROM_NAMESPACE;
    if (const auto* ctxt = static_cast<xmlParserCtxtPtr>(e.ctxt); parser && ctxt) {
      if (ctxt->depth == 0)
        offset_ = xmlByteConsumed(const_cast<xmlParserCtxtPtr>(ctxt));
      else
        message_ += " in an entity's replacement text";
    }
  }
  // bom: bytes skipped before libxml2's input, so offsets refer to the payload.
  [[noreturn]] void raise(std::string_view library, std::size_t bom) const {
    if (!failed_) throw DecodeError(library, "parse failed without an error report");
    throw DecodeError(
        library,
        message_ + " (line " + std::to_string(line_) + ", column " + std::to_string(column_) + ")",
        offset_ < 0 ? -1 : offset_ + static_cast<long long>(bom));
  }
  void raise_if_failed(std::string_view library, std::size_t bom) const {
    if (failed_) raise(library, bom);
  }

 private:
  bool failed_ = false;
  std::string message_;
  int line_ = 0, column_ = 0;
  long long offset_ = -1;
};

// One parser context reused across calls (xmlCtxtReadMemory resets it and
// keeps its dictionary and buffers), for the DOM and SAX decoders. Errors are
// captured through ctxt->_private: the tree builder needs ctxt as its SAX user
// data, and xmlCtxtReset keeps _private, sax and userData.
class ReusedContext {
 public:
  ReusedContext() {
    prepare_thread();
    ctxt_ = xmlNewParserCtxt();
    if (!ctxt_) throw std::bad_alloc();
    ctxt_->_private = &errors_;
    ctxt_->sax->serror = on_error;
  }
  ~ReusedContext() { xmlFreeParserCtxt(ctxt_); }
  ReusedContext(const ReusedContext&) = delete;
  ReusedContext& operator=(const ReusedContext&) = delete;

  xmlParserCtxtPtr get() const { return ctxt_; }
  // The xmlStructuredErrorFunc a replacement SAX handler must carry.
  static void on_error(void*, xmlErrorPtr e) {
    const auto* ctxt = static_cast<xmlParserCtxtPtr>(e->ctxt);
    if (ctxt && ctxt->_private) static_cast<FirstError*>(ctxt->_private)->keep(*e);
  }
  // Parses xml (BOM already skipped) with the context's SAX handler and
  // returns what it built: the document for the tree builder, else null.
  // Parse errors are kept for check().
  xmlDocPtr parse(std::string_view library, std::string_view xml) {
    prepare_thread();
    errors_.clear();
    return xmlCtxtReadMemory(ctxt_, xml.data(), input_size(library, xml), nullptr, nullptr,
                             kParseOptions);
  }
  void check(std::string_view library, std::size_t bom) const {
    errors_.raise_if_failed(library, bom);
  }
  [[noreturn]] void raise(std::string_view library, std::size_t bom) const {
    errors_.raise(library, bom);
  }

 private:
  xmlParserCtxtPtr ctxt_ = nullptr;
  FirstError errors_;
};

}  // namespace wb::xml::libxml2
