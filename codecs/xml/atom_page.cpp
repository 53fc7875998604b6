#include "codecs/xml/atom_page.hpp"

#include "codecs/xml/vocabulary.hpp"
#include "generators/text.hpp"

namespace wb::xml {

bool AtomPageReader::start(std::string_view uri, std::string_view local) {
  count_ = same_uri(uri, kMetadataNs) && local == "count";
  if (!count_ && !(same_uri(uri, kAtomNs) && local == "link")) return false;
  rel_.clear();
  href_.clear();
  text_.clear();
  return true;
}

void AtomPageReader::attribute(std::string_view uri, std::string_view local,
                               std::string_view value) {
  if (!uri.empty()) return;
  if (local == "rel") rel_.assign(value);
  if (local == "href") href_.assign(value);
}

void AtomPageReader::end() {
  if (count_) {
    const auto n = text::parse_int64(text_);
    if (!n || *n < 0) throw DecodeError("atom", "m:count is not a non-negative integer");
    if (page_) page_->count = *n;
  } else if (rel_ == "next" && page_) {
    page_->next_link = href_;
  }
}

}  // namespace wb::xml
