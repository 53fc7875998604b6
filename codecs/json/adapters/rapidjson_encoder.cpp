// RapidJSON's Writer, writing straight into the caller's string through a
// small output stream (no intermediate StringBuffer and no final copy).
#include <rapidjson/writer.h>

#include <algorithm>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/json/string_output.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

class RapidjsonSink {
 public:
  explicit RapidjsonSink(rapidjson::Writer<StringOutput>& w) : w_(w) {}
  void start_object() { w_.StartObject(); }
  void end_object() { w_.EndObject(); }
  void start_array() { w_.StartArray(); }
  void end_array() { w_.EndArray(); }
  void key(std::string_view k) { w_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }
  void string(std::string_view v) {
    w_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
  void raw_string(std::string_view json) {
    w_.RawValue(json.data(), json.size(), rapidjson::kStringType);
  }
  void int32(int32_t v) { w_.Int(v); }
  void number(double v) { w_.Double(v); }  // shortest (Grisu2), "3.0" for whole numbers
  void boolean(bool v) { w_.Bool(v); }
  void null() { w_.Null(); }

 private:
  rapidjson::Writer<StringOutput>& w_;
};

class RapidjsonEncoder : public JsonEncoderFor<RapidjsonEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    StringOutput stream(out);
    writer_.Reset(stream);  // the writer (and its nesting stack) is reused
    RapidjsonSink sink(writer_);
    write_feed(sink, rows, this->envelope());
    stream.finish();
  }

 private:
  rapidjson::Writer<StringOutput> writer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_ENCODER(rapidjson, wb::json::RapidjsonEncoder)
