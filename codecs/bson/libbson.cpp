// BSON through libbson: the encoder appends to a bson_t (the builder API:
// bson_append_document_begin & co., arrays keyed "0", "1", ...); the decoder
// walks the payload with bson_iter (every element, in place, each one
// checked by bson_iter_next, each nested document by
// bson_iter_init_from_data) and feeds the shared SaxBinder. The walk keeps
// its own stack of iterators, so it does not recurse, and refuses nesting
// past kMaxDepth; libbson has no limit of its own.
#include <bson/bson.h>

#include <array>
#include <string>
#include <vector>

#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::bson {
namespace {

constexpr std::string_view kFormat = "bson";
constexpr std::string_view kLibrary = token::decoder_bson_libbson;
constexpr std::size_t kMaxDepth = 64;

// write_map_feed's sink. Children are appended in place (begin/end), so the
// open documents are kept in a fixed array: a bson_t must not move while a
// child of it is open.
class BsonSink {
 public:
  BsonSink() { bson_init(&frames_[0].doc); }
  ~BsonSink() { bson_destroy(&frames_[0].doc); }
  BsonSink(const BsonSink&) = delete;
  BsonSink& operator=(const BsonSink&) = delete;

  void reset() {
    bson_reinit(&frames_[0].doc);
    depth_ = 0;
    root_open_ = false;
  }
  const bson_t& root() const { return frames_[0].doc; }

  void start_object() { open(false); }
  void end_object() { close(); }
  void start_array() { open(true); }
  void end_array() { close(); }
  void key(std::string_view k) { key_ = k; }
  void string(std::string_view v) {
    const auto [k, n] = next_key();
    check(bson_append_utf8(&top(), k, n, v.data(), static_cast<int>(v.size())));
  }
  void int32(int32_t v) {
    const auto [k, n] = next_key();
    check(bson_append_int32(&top(), k, n, v));
  }
  void number(double v) {
    const auto [k, n] = next_key();
    check(bson_append_double(&top(), k, n, v));
  }

 private:
  struct Frame {
    bson_t doc;
    bool array = false;
    uint32_t index = 0;
  };
  static void check(bool ok) {
    if (!ok) throw std::length_error("bson: the document would exceed BSON's 2 GiB limit");
  }
  bson_t& top() { return frames_[depth_].doc; }
  // The key of the next element: the pending member name, or the index in
  // an array.
  std::pair<const char*, int> next_key() {
    Frame& f = frames_[depth_];
    if (!f.array) return {key_.data(), static_cast<int>(key_.size())};
    const char* k;
    const std::size_t n = bson_uint32_to_string(f.index++, &k, index_, sizeof index_);
    return {k, static_cast<int>(n)};
  }
  void open(bool array) {
    if (!root_open_) {  // the feed itself: the root document
      root_open_ = true;
      return;
    }
    if (depth_ + 1 >= frames_.size()) throw std::length_error("bson: nested too deep");
    const auto [k, n] = next_key();
    Frame& child = frames_[depth_ + 1];
    check(array ? bson_append_array_begin(&top(), k, n, &child.doc)
                : bson_append_document_begin(&top(), k, n, &child.doc));
    child.array = array;
    child.index = 0;
    ++depth_;
  }
  void close() {
    if (depth_ == 0) return;  // the root
    Frame& child = frames_[depth_--];
    check(child.array ? bson_append_array_end(&top(), &child.doc)
                      : bson_append_document_end(&top(), &child.doc));
  }

  std::array<Frame, 8> frames_;
  std::size_t depth_ = 0;
  bool root_open_ = false;
  std::string_view key_;
  char index_[16];
};

class BsonEncoder : public EncoderFor<BsonEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    sink_.reset();
    json::write_map_feed(sink_, rows);
    const bson_t& doc = sink_.root();
    out.assign(reinterpret_cast<const char*>(bson_get_data(&doc)), doc.len);
  }

 private:
  BsonSink sink_;
};

class BsonDecoder : public json::EventDecoderFor<BsonDecoder> {
 public:
  BsonDecoder() : EventDecoderFor(kFormat) {}
  // Every element of the document, depth first, as binder events.
  template <class Target>
  void walk(std::string_view input, Target& target) {
    const auto* data = reinterpret_cast<const uint8_t*>(input.data());
    bson_t doc;
    // The length prefix must be the input's length, and the last byte 0.
    if (!bson_init_static(&doc, data, input.size()))
      throw DecodeError(kLibrary,
                        "not a BSON document: the length prefix or the final byte is wrong", 0);
    stack_.clear();
    stack_.push_back({});
    if (!bson_iter_init(&stack_.back().it, &doc))
      throw DecodeError(kLibrary, "not a BSON document", 0);
    stack_.back().array = false;
    target.start_object();
    while (!stack_.empty()) {
      Level& level = stack_.back();
      if (!bson_iter_next(&level.it)) {
        if (level.it.err_off != 0)
          throw DecodeError(kLibrary, "corrupt element",
                            static_cast<long long>(level.it.raw - data) + level.it.err_off);
        level.array ? target.end_array() : target.end_object();
        stack_.pop_back();
        continue;
      }
      bson_iter_t& it = level.it;
      if (!level.array) target.key(std::string_view(bson_iter_key(&it), bson_iter_key_len(&it)));
      switch (bson_iter_type(&it)) {
        case BSON_TYPE_UTF8: {
          uint32_t n = 0;
          const char* s = bson_iter_utf8(&it, &n);
          target.string(std::string_view(s, n));
          break;
        }
        case BSON_TYPE_INT32:
          target.integer(bson_iter_int32(&it));
          break;
        case BSON_TYPE_INT64:
          target.integer(bson_iter_int64(&it));
          break;
        case BSON_TYPE_DOUBLE:
          target.number(bson_iter_double(&it));
          break;
        case BSON_TYPE_BOOL:
          target.boolean(bson_iter_bool(&it));
          break;
        case BSON_TYPE_NULL:
          target.null();
          break;
        case BSON_TYPE_DOCUMENT:
        case BSON_TYPE_ARRAY: {
          const bool array = BSON_ITER_HOLDS_ARRAY(&it);
          if (stack_.size() >= kMaxDepth)
            throw DecodeError(
                kLibrary,
                "nested more than " + std::to_string(kMaxDepth) + " deep (the adapter's limit)",
                static_cast<long long>(it.raw - data) + it.off);
          Level child{};
          child.array = array;
          // bson_iter_recurse checks nothing of the child, and bson_iter_next
          // cannot tell a child's last byte from its terminator: a child
          // whose last byte is not 0 would end early, silently. The child
          // goes through bson_iter_init_from_data, the checks a whole
          // document gets (at least 5 bytes, ends in 0).
          uint32_t child_len = 0;
          const uint8_t* child_data = nullptr;
          array ? bson_iter_array(&it, &child_len, &child_data)
                : bson_iter_document(&it, &child_len, &child_data);
          if (!bson_iter_init_from_data(&child.it, child_data, child_len))
            throw DecodeError(kLibrary,
                              "corrupt nested document: shorter than 5 bytes or not ending in 0",
                              static_cast<long long>(it.raw - data) + it.off);
          array ? target.start_array() : target.start_object();
          stack_.push_back(child);  // level is not used after this
          break;
        }
        default:
          if constexpr (std::is_same_v<Target, json::IgnoreEvents>) {
            target.null();  // another BSON type: parse-only takes it as it is
            break;
          }
          throw DecodeError(kFormat,
                            "a value of BSON type 0x" + hex(bson_iter_type(&it)) +
                                ", which the map layout never holds",
                            static_cast<long long>(it.raw - data) + it.off);
      }
    }
  }

 private:
  static std::string hex(unsigned v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    return {kDigits[(v >> 4) & 15], kDigits[v & 15]};
  }

  struct Level {
    bson_iter_t it;
    bool array;
  };
  std::vector<Level> stack_;  // reused across calls
};

}  // namespace
}  // namespace wb::bson

WB_DEFINE_ENCODER(bson, libbson, wb::bson::BsonEncoder)
WB_DEFINE_DECODER(bson, libbson, wb::bson::BsonDecoder)
