// Boost.JSON as the infoset's JSON writer: the infoset becomes a
// boost::json::value (member order is the infoset's) that the serializer
// writes. A value holds no number text, so the text becomes an integer or a
// double first (exact: Boost writes the shortest round-trip form, "1.5E0").
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "codecs/common/text.hpp"
#include "codecs/json/boostjson_builder.hpp"
#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {

class BoostjsonWriter {
 public:
  static constexpr std::string_view kName = "boostjson";

  template <class Dom>
  void write(Dom& dom, typename Dom::Node root, std::string& out) {
    builder_.reset();
    infoset_to_json(dom, root, *this, false, scratch_);
    const boost::json::value doc = builder_.release();
    json::serialize_into(serializer_, doc, text_);
    out.clear();
    append_escaping_solidus(out, text_);
  }

  // infoset_to_json's target
  void start_object() { builder_.start_object(); }
  void end_object() { builder_.end_object(); }
  void start_array() { builder_.start_array(); }
  void end_array() { builder_.end_array(); }
  void key(std::string_view k) { builder_.key(k); }
  void string(std::string_view v) { builder_.string(v); }
  void number(std::string_view text) {
    if (text.find_first_of(".eE") == std::string_view::npos)
      if (auto i = text::parse_int64(text)) return builder_.integer(*i);
    const auto d = text::parse_double(text);
    if (!d) throw std::runtime_error("boostjson: '" + std::string(text) + "' is not a number");
    builder_.number(*d);
  }
  void boolean(bool v) { builder_.boolean(v); }
  void null() { builder_.null(); }

 private:
  json::BoostjsonBuilder builder_;
  boost::json::serializer serializer_;
  std::string scratch_, text_;
};

}  // namespace wb::wcfjson
