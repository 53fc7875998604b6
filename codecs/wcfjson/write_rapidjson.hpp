// RapidJSON's Writer as the infoset's JSON writer: numbers are written as the
// infoset's text (RawValue), so they stay exactly what the infoset says.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <string_view>

#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {

class RapidjsonWriter {
 public:
  static constexpr std::string_view kName = "rapidjson";

  template <class Dom>
  void write(Dom& dom, typename Dom::Node root, std::string& out) {
    buffer_.Clear();
    writer_.Reset(buffer_);  // the writer (and its nesting stack) is reused
    infoset_to_json(dom, root, *this, false, scratch_);
    out.clear();
    append_escaping_solidus(out, {buffer_.GetString(), buffer_.GetSize()});
  }

  // infoset_to_json's target
  void start_object() { writer_.StartObject(); }
  void end_object() { writer_.EndObject(); }
  void start_array() { writer_.StartArray(); }
  void end_array() { writer_.EndArray(); }
  void key(std::string_view k) { writer_.Key(k.data(), size(k)); }
  void string(std::string_view v) { writer_.String(v.data(), size(v)); }
  void number(std::string_view text) {
    writer_.RawValue(text.data(), text.size(), rapidjson::kNumberType);
  }
  void boolean(bool v) { writer_.Bool(v); }
  void null() { writer_.Null(); }

 private:
  static rapidjson::SizeType size(std::string_view v) {
    return static_cast<rapidjson::SizeType>(v.size());
  }
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
  std::string scratch_;
};

}  // namespace wb::wcfjson
