// RapidJSON's Writer, writing straight into the caller's string through a
// small output stream (no intermediate StringBuffer and no final copy).
#include <rapidjson/writer.h>

#include <algorithm>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

// Writes into out's own storage. out is kept sized to its capacity while
// writing, so a reused string is only zero-filled where it grows.
class StringOutput {
 public:
  using Ch = char;
  explicit StringOutput(std::string& out) : out_(out) { grow(out_.capacity()); }
  void Put(char c) {
    Reserve(1);
    data_[pos_++] = c;
  }
  void Reserve(std::size_t n) {
    if (size_ - pos_ < n) grow(std::max(2 * size_, pos_ + n));
  }
  // The string's buffer is held as a pointer, not reached through the
  // string per character: a char store may alias the string, so the
  // compiler would reload its data pointer after every one (a dependent load
  // per character of WriteString's loop).
  void PutUnsafe(char c) { data_[pos_++] = c; }
  void Flush() {}
  void finish() { out_.resize(pos_); }

 private:
  void grow(std::size_t size) {
    out_.resize(size);
    data_ = out_.data();
    size_ = out_.size();
  }
  std::string& out_;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
};
// Found by argument-dependent lookup: RapidJSON's writer reserves once per
// token and then stores unchecked, as with its own StringBuffer.
inline void PutReserve(StringOutput& s, std::size_t n) {
  s.Reserve(n);
}
inline void PutUnsafe(StringOutput& s, char c) {
  s.PutUnsafe(c);
}

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
  void int32(int32_t v) { w_.Int(v); }
  void number(double v) { w_.Double(v); }  // shortest (Grisu2), "3.0" for whole numbers
  void boolean(bool v) { w_.Bool(v); }
  void null() { w_.Null(); }

 private:
  rapidjson::Writer<StringOutput>& w_;
};

class RapidjsonEncoder : public EncoderFor<RapidjsonEncoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    StringOutput stream(out);
    writer_.Reset(stream);  // the writer (and its nesting stack) is reused
    RapidjsonSink sink(writer_);
    write_feed(sink, rows);
    stream.finish();
  }

 private:
  rapidjson::Writer<StringOutput> writer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_ENCODER(json, rapidjson, wb::json::RapidjsonEncoder)
