// What Mini-XML's DOM and SAX decoders share: one load through
// mxmlSAXLoadString that checks what Mini-XML 3.3 leaves unchecked, and the
// library's per-thread settings.
//
// Mini-XML returns a partial tree, without calling its error callback, for a
// document that ends inside an element, and it stops reading, silently, at a
// byte that is not UTF-8 or at a NUL (docs/findings.md). It reports some
// errors through its callback and still returns a tree (a control character
// in text). A user of the library has to guard against both, so the load
// counts element opens and closes in its SAX callback and takes any error
// message as a failure. It never reads a DTD (a DOCTYPE is refused by
// open_document()) and loads iteratively (no recursion per nesting level).
#pragma once

#include <mxml.h>

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::xml::mxml {

struct FreeTree {
  void operator()(mxml_node_t* n) const { mxmlDelete(n); }
};
using Tree = std::unique_ptr<mxml_node_t, FreeTree>;

// Mini-XML keeps comments, directives and CDATA as elements named "!--...",
// "?xml ...?" and "![CDATA[...".
inline bool is_markup(mxml_node_t* n) {
  const char c = mxmlGetElement(n)[0];
  return c == '!' || c == '?';
}
inline bool is_cdata(mxml_node_t* n) {
  return mxmlGetType(n) == MXML_ELEMENT && mxmlGetCDATA(n) != nullptr;
}

inline bool only_space(const char* s) {
  for (; *s; ++s)
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') return false;
  return true;
}

// The messages Mini-XML reported on this thread since the last load().
std::string& errors();
// The error callback and a wrap margin of 0 (no line breaks inside tags on
// save), for this thread (Mini-XML keeps both per thread).
void prepare_thread();

// One document: Handler::on(node, event) sees every SAX event of the body (a
// Handler that keeps the tree retains its nodes) and may throw, once: the
// exception is kept, the rest of the document is read without it, and the
// exception is rethrown. Returns the top node that holds what the load kept
// (a Handler that retains nodes: the document) and sets root to the document
// element. buffer: reused, for
// the NUL-terminated copy Mini-XML reads.
template <class Handler>
Tree load(std::string_view library, std::string& buffer, std::string_view body, long long skipped,
          Handler& handler, mxml_node_t*& root) {
  struct State {
    Handler& handler;
    int depth = 0;
    mxml_node_t* root = nullptr;
    bool root_closed = false, outside = false, second_root = false;
    std::exception_ptr failure;
  } state{handler, 0, nullptr, false, false, false, nullptr};
  const mxml_sax_cb_t on_event = [](mxml_node_t* n, mxml_sax_event_t e, void* data) {
    State& s = *static_cast<State*>(data);
    if (e == MXML_SAX_ELEMENT_OPEN && s.depth++ == 0) {
      // Mini-XML finds a second root only when the first one is retained.
      if (s.root) s.second_root = true;
      s.root = n;
    }
    if (e == MXML_SAX_ELEMENT_CLOSE && --s.depth == 0) s.root_closed = true;
    if (e != MXML_SAX_ELEMENT_OPEN && e != MXML_SAX_ELEMENT_CLOSE && s.depth == 0) {
      // Text outside the document element: Mini-XML keeps it as data.
      if (e == MXML_SAX_DATA && !only_space(mxmlGetOpaque(n))) s.outside = true;
      // Top-level comments, directives and white space go unretained: a
      // retained one would become the parent of the document element, and
      // Mini-XML then takes that element for a second root.
      return;
    }
    if (s.failure) return;
    try {
      s.handler.on(n, e);
    } catch (...) {
      s.failure = std::current_exception();
    }
  };
  prepare_thread();
  errors().clear();
  buffer.assign(body);
  // Under a top node of ours: Mini-XML frees what it built on an error by
  // deleting its first node, which misses an element whose attributes fail
  // to parse when it has no parent (the root: a leak per bad document).
  // Under a top node every node has a parent, and deleting the top frees
  // all.
  Tree tree(mxmlNewElement(MXML_NO_PARENT, "wirebench-top"));
  if (!tree) throw std::bad_alloc();
  mxmlSAXLoadString(tree.get(), buffer.c_str(), MXML_OPAQUE_CALLBACK, on_event, &state);
  if (!errors().empty()) throw DecodeError(library, errors(), -1);
  if (state.failure) std::rethrow_exception(state.failure);
  if (!state.root) throw DecodeError(library, "no document element", skipped);
  if (state.depth != 0 || !state.root_closed)
    throw DecodeError(library,
                      "the document ends inside an element (Mini-XML stops at the end of the "
                      "input, a NUL or a byte that is not UTF-8)",
                      -1);
  if (state.outside || state.second_root)
    throw DecodeError(library, "content outside the document element", -1);
  // Mini-XML takes an end tag cut short at the end of the input ("</feed")
  // for a whole one; a document ends in '>' (its root's end tag, a comment
  // or a PI), white space aside.
  const std::size_t last = body.find_last_not_of(" \t\r\n");
  if (last == std::string_view::npos || body[last] != '>')
    throw DecodeError(library, "the document does not end in markup", skipped + body.size());
  root = state.root;
  return tree;
}

}  // namespace wb::xml::mxml
