// Atom's server-driven paging, read once for both Atom binders (Binder,
// EntityBinder): the root feed's <link rel="next" href="..."/> and
// <m:count>N</m:count> into the decoder's FeedPage.
#pragma once

#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::xml {

class AtomPageReader {
 public:
  explicit AtomPageReader(FeedPage* page) : page_(page) {}
  // A child of the root feed opens: whether it is a link or the count, whose
  // attributes, text and end then come here.
  bool start(std::string_view uri, std::string_view local);
  static bool may_use_attribute(std::string_view local) {
    return local == "rel" || local == "href";
  }
  void attribute(std::string_view uri, std::string_view local, std::string_view value);
  void text(std::string_view chunk) { text_.append(chunk); }
  void end();

 private:
  FeedPage* page_;  // nullptr: the caller does not keep the page
  bool count_ = false;
  std::string rel_, href_, text_;
};

}  // namespace wb::xml
