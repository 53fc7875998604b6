// The document element of a DOM whose parser accepts more than XML allows at
// the top level (TinyXML-2 and Mini-XML keep a second element, text and
// markup after the root as further top-level nodes). XML 1.0 (2.1) allows one
// element and, around it, only comments, processing instructions and white
// space; the prolog's DOCTYPE was already refused by open_document().
#pragma once

#include <string_view>

#include "codecs/codec.hpp"

namespace wb::xml {

// What a top-level node is to the check.
enum class TopLevel {
  element,   // an element: there must be exactly one
  allowed,   // a comment, a PI, the XML declaration, white space
  forbidden  // text, a DOCTYPE after the root, anything else
};

// Returns the one element among first and its siblings (next(n): the sibling
// after n, falsy at the end), or throws DecodeError(library, ...) at
// offset(n) (< 0: unknown) plus base.
template <class Node, class Next, class Kind, class Offset>
Node document_element(std::string_view library, Node first, Next next, Kind kind, Offset offset,
                      long long base) {
  Node root{};
  for (Node n = first; n; n = next(n)) {
    const TopLevel k = kind(n);
    if (k == TopLevel::allowed) continue;
    if (k == TopLevel::element && !root) {
      root = n;
      continue;
    }
    const long long at = offset(n);
    throw DecodeError(library, "content after the document element", at < 0 ? -1 : base + at);
  }
  if (!root) throw DecodeError(library, "no document element", base);
  return root;
}

}  // namespace wb::xml
