// simdjson On-Demand over one of our inputs, shared by the json decoder and
// the wcfjson reader: the document started (BOM skipped; the kInputPadding
// bytes every input has after its end are simdjson's padding), its errors
// placed at the byte where the iterator stands, and its end checked.
#pragma once

#include <simdjson.h>

#include <string_view>

#include "codecs/codec.hpp"

namespace wb::json {

static_assert(kInputPadding >= simdjson::SIMDJSON_PADDING);

class OndemandInput {
 public:
  explicit OndemandInput(std::string_view library) : library_(library) {}

  simdjson::ondemand::document& start(std::string_view input) {
    base_ = input.data();
    const std::string_view json = skip_bom(input);
    // No position for these errors: doc_ is not a usable document after them.
    if (auto e = parser_
                     .iterate(simdjson::padded_string_view(json.data(), json.size(),
                                                           json.size() + kInputPadding))
                     .get(doc_))
      throw DecodeError(library_, simdjson::error_message(e));
    return doc_;
  }
  // On-Demand reads lazily: trailing content is only found by asking.
  void check_end() {
    const char* at;
    if (!doc_.current_location().get(at))
      throw DecodeError(library_, "trailing content after the document", at - base_);
  }
  void check(simdjson::error_code e) {
    if (e) throw DecodeError(library_, simdjson::error_message(e), offset());
  }
  // Of the iterator in the input as given (BOM included); -1 when unknown.
  long long offset() {
    const char* at;
    return doc_.current_location().get(at) ? -1 : at - base_;
  }
  std::size_t max_depth() const { return parser_.max_depth(); }
  // A scalar's raw_json_token() without the white space On-Demand includes
  // after it.
  static std::string_view token_text(std::string_view raw) {
    return raw.substr(0, raw.find_last_not_of(" \t\r\n") + 1);
  }

 private:
  std::string_view library_;
  simdjson::ondemand::parser parser_;
  simdjson::ondemand::document doc_;
  const char* base_ = nullptr;  // the input before the BOM was skipped
};

}  // namespace wb::json
