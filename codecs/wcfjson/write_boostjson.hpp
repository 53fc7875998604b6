// Boost.JSON as the infoset's JSON writer: the infoset becomes a
// boost::json::value (member order is the infoset's) that the serializer
// writes ("1.5E0" for doubles: Boost's shortest round-trip form).
#pragma once

#include <string>
#include <string_view>

#include "codecs/json/adapters/boostjson_builder.hpp"
#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {

class BoostjsonWriter {
 public:
  static constexpr std::string_view kName = "boostjson";

  template <class Dom>
  void write(Dom& dom, typename Dom::Node root, std::string& out) {
    builder_.reset();
    infoset_to_json(dom, root, builder_, false, scratch_);
    const boost::json::value doc = builder_.release();
    json::serialize_into(serializer_, doc, text_);
    out.clear();
    append_escaping_solidus(out, text_);
  }

 private:
  NumberTextTo<json::BoostjsonBuilder> builder_;
  boost::json::serializer serializer_;
  std::string scratch_, text_;
};

}  // namespace wb::wcfjson
