// The hand-written reference writer: std::to_chars and one growing buffer.
// It marks the floor for what a JSON encoder can cost.
#include "codecs/common/json_escape.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

class ReferenceSink {
 public:
  explicit ReferenceSink(std::string& out) : out_(out) {}
  void start_object() { open('{'); }
  void end_object() { close('}'); }
  void start_array() { open('['); }
  void end_array() { close(']'); }
  void key(std::string_view k) {
    separate();
    append_quoted(out_, k);
    out_ += ':';
    comma_ = false;
  }
  void string(std::string_view v) {
    separate();
    append_quoted(out_, v);
  }
  void raw_string(std::string_view json) {
    separate();
    out_ += json;
  }
  void int32(int32_t v) {
    separate();
    char buf[text::kMaxNumberChars];
    out_.append(buf, text::write_int(buf, v));
  }
  void number(double v) {
    separate();
    append_double(out_, v);
  }
  void boolean(bool v) {
    separate();
    out_ += v ? "true" : "false";
  }
  void null() {
    separate();
    out_ += "null";
  }

 private:
  void separate() {
    if (comma_) out_ += ',';
    comma_ = true;
  }
  void open(char c) {
    separate();
    out_ += c;
    comma_ = false;
  }
  void close(char c) {
    out_ += c;
    comma_ = true;
  }
  std::string& out_;
  bool comma_ = false;
};

class ReferenceEncoder : public JsonEncoderFor<ReferenceEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    ReferenceSink sink(out);
    write_feed(sink, rows, this->envelope());
  }
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_ENCODER(reference, wb::json::ReferenceEncoder)
