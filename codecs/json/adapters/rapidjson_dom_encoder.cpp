// RapidJSON as a tree-building encoder: the feed is built as a
// rapidjson::Document (strings copied into its allocator, as the nlohmann and
// Boost.JSON encoders copy them into their values), then written by
// Document::Accept into the same Writer and output stream the streaming
// `rapidjson` encoder uses. The two differ only by the tree, so their
// difference is what building one costs.
#include <rapidjson/document.h>
#include <rapidjson/writer.h>

#include <string>
#include <vector>

#include "codecs/json/adapters/rapidjson_dom.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/json/string_output.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

// The feed's events as a Document's SAX handler calls. A Document's
// EndObject and EndArray take the number of members or elements, so the sink
// counts them per open container.
class DocumentSink {
 public:
  DocumentSink(rapidjson::Document& doc, std::vector<rapidjson::SizeType>& counts)
      : doc_(doc), counts_(counts) {
    counts_.clear();
  }
  void start_object() {
    value();
    doc_.StartObject();
    counts_.push_back(0);
  }
  void end_object() {
    doc_.EndObject(counts_.back());
    counts_.pop_back();
  }
  void start_array() {
    value();
    doc_.StartArray();
    counts_.push_back(0);
  }
  void end_array() {
    doc_.EndArray(counts_.back());
    counts_.pop_back();
  }
  // A key is counted with its value (EndObject counts members, not both).
  void key(std::string_view k) { doc_.Key(k.data(), size(k), true); }
  void string(std::string_view v) {
    value();
    doc_.String(v.data(), size(v), true);
  }
  void int32(int32_t v) {
    value();
    doc_.Int(v);
  }
  void number(double v) {
    value();
    doc_.Double(v);
  }
  void boolean(bool v) {
    value();
    doc_.Bool(v);
  }
  void null() {
    value();
    doc_.Null();
  }

 private:
  static rapidjson::SizeType size(std::string_view s) {
    return static_cast<rapidjson::SizeType>(s.size());
  }
  void value() {
    if (!counts_.empty()) ++counts_.back();
  }
  rapidjson::Document& doc_;
  std::vector<rapidjson::SizeType>& counts_;
};

class RapidjsonDomEncoder : public JsonEncoderFor<RapidjsonDomEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    reset_document(doc_);  // frees the last tree, as the DOM decoders do
    auto build = [&](rapidjson::Document& doc) {
      DocumentSink sink(doc, counts_);
      write_feed(sink, rows, this->envelope());
      return true;
    };
    doc_.Populate(build);
    StringOutput stream(out);
    writer_.Reset(stream);
    doc_.Accept(writer_);
    stream.finish();
  }

 private:
  rapidjson::Document doc_;
  std::vector<rapidjson::SizeType> counts_;
  rapidjson::Writer<StringOutput> writer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_ENCODER(rapidjson_dom, wb::json::RapidjsonDomEncoder)
