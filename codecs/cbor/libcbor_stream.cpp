// CBOR through libcbor's streaming decoder: cbor_stream_decode reads one data
// item head per call and reports it through callbacks, which feed the shared
// SaxBinder. libcbor keeps no nesting state, so the adapter counts each open
// container's items to know where a map key is and where a container ends;
// its own stack stops at kCborMaxDepth. Nothing is allocated from a count.
#include <cbor.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "codecs/cbor/guard.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::cbor {
namespace {

constexpr std::string_view kFormat = "cbor";
constexpr std::string_view kLibrary = token::decoder_cbor_libcbor_stream;
constexpr uint64_t kOpen = UINT64_MAX;  // an indefinite container: until a break

enum class Kind { map, array, text, tag };

struct Frame {
  Kind kind;
  uint64_t left;  // items still expected (maps: keys and values), or kOpen
  uint64_t seen = 0;
};

template <class Target>
class Stream {
 public:
  explicit Stream(Target& t) : t_(t) {}

  void run(std::string_view input) {
    const auto* data = reinterpret_cast<cbor_data>(input.data());
    std::size_t at = 0;
    do {
      if (at == input.size())
        throw DecodeError(kLibrary, "truncated: the value is incomplete",
                          static_cast<long long>(at));
      const cbor_decoder_result r =
          cbor_stream_decode(data + at, input.size() - at, &kCallbacks, this);
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      if (r.status == CBOR_DECODER_NEDATA)
        throw DecodeError(kLibrary, "truncated: the value is incomplete",
                          static_cast<long long>(at));
      if (r.status != CBOR_DECODER_FINISHED)
        throw DecodeError(kLibrary, "malformed data item", static_cast<long long>(at));
      at += r.read;
    } while (!stack_.empty());
    if (at != input.size())
      throw DecodeError(kLibrary, "bytes after the end of the value", static_cast<long long>(at));
  }

 private:
  // Whether the next item is a map key.
  bool at_key() const {
    return !stack_.empty() && stack_.back().kind == Kind::map && stack_.back().seen % 2 == 0;
  }
  // A scalar or a closed container is one item of its container, which may
  // close in turn.
  void item_done() {
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      ++f.seen;
      if (f.left == kOpen || --f.left != 0) return;
      close();
    }
  }
  void close() {
    const Kind kind = stack_.back().kind;
    stack_.pop_back();
    if (kind == Kind::map) t_.end_object();
    if (kind == Kind::array) t_.end_array();
    if (kind == Kind::text) {
      at_key() ? t_.key(text_) : t_.string(text_);
    }
  }
  void open(Kind kind, uint64_t items) {
    if (stack_.size() >= kCborMaxDepth)
      throw DecodeError(kLibrary, "nested more than " + std::to_string(kCborMaxDepth) +
                                      " deep (the adapter's limit)");
    if (at_key() && kind != Kind::text) throw DecodeError(kFormat, "a map key that is not text");
    if (kind == Kind::map) t_.start_object();
    if (kind == Kind::array) t_.start_array();
    if (kind == Kind::text) text_.clear();
    stack_.push_back({kind, items});
    if (items == 0) {  // an empty container is complete at once
      close();
      item_done();
    }
  }
  void scalar_check() const {
    if (at_key()) throw DecodeError(kFormat, "a map key that is not text");
    if (!stack_.empty() && stack_.back().kind == Kind::text)
      throw DecodeError(kFormat, "an indefinite text string with a chunk that is not text");
  }
  template <class F>
  static void guarded(void* self, F f) {
    auto& s = *static_cast<Stream*>(self);
    try {
      f(s);
    } catch (...) {
      s.error_ = std::current_exception();
    }
  }

  static void on_uint(void* self, uint64_t v) {
    guarded(self, [&](Stream& s) { s.scalar_check(), s.t_.unsigned_integer(v), s.item_done(); });
  }
  static void on_negint(void* self, uint64_t n) {  // the value is -1 - n
    guarded(self, [&](Stream& s) {
      s.scalar_check();
      if (n <= INT64_MAX)
        s.t_.integer(-1 - static_cast<int64_t>(n));
      else
        s.t_.number(-1.0 - static_cast<double>(n));
      s.item_done();
    });
  }
  static void on_uint8(void* self, uint8_t v) { on_uint(self, v); }
  static void on_uint16(void* self, uint16_t v) { on_uint(self, v); }
  static void on_uint32(void* self, uint32_t v) { on_uint(self, v); }
  static void on_negint8(void* self, uint8_t v) { on_negint(self, v); }
  static void on_negint16(void* self, uint16_t v) { on_negint(self, v); }
  static void on_negint32(void* self, uint32_t v) { on_negint(self, v); }
  static void on_string(void* self, cbor_data p, std::size_t n) {
    guarded(self, [&](Stream& s) {
      const std::string_view v(reinterpret_cast<const char*>(p), n);
      if (!s.stack_.empty() && s.stack_.back().kind == Kind::text) {
        s.text_.append(v);  // a chunk of an indefinite string
        ++s.stack_.back().seen;
        return;
      }
      s.at_key() ? s.t_.key(v) : s.t_.string(v);
      s.item_done();
    });
  }
  static void on_string_start(void* self) {
    guarded(self, [&](Stream& s) { s.open(Kind::text, kOpen); });
  }
  static void on_map_start(void* self, std::size_t n) {
    guarded(self, [&](Stream& s) { s.open(Kind::map, static_cast<uint64_t>(n) * 2); });
  }
  static void on_indef_map_start(void* self) {
    guarded(self, [&](Stream& s) { s.open(Kind::map, kOpen); });
  }
  static void on_array_start(void* self, std::size_t n) {
    guarded(self, [&](Stream& s) { s.open(Kind::array, n); });
  }
  static void on_indef_array_start(void* self) {
    guarded(self, [&](Stream& s) { s.open(Kind::array, kOpen); });
  }
  static void on_break(void* self) {
    guarded(self, [&](Stream& s) {
      if (s.stack_.empty() || s.stack_.back().left != kOpen)
        throw DecodeError(kLibrary, "a break outside an indefinite container");
      if (s.stack_.back().kind == Kind::map && s.stack_.back().seen % 2 != 0)
        throw DecodeError(kFormat, "a map that ends after a key");
      s.close();
      s.item_done();
    });
  }
  static void on_float(void* self, float v) { on_double(self, v); }
  static void on_double(void* self, double v) {
    guarded(self, [&](Stream& s) { s.scalar_check(), s.t_.number(v), s.item_done(); });
  }
  static void on_bool(void* self, bool v) {
    guarded(self, [&](Stream& s) { s.scalar_check(), s.t_.boolean(v), s.item_done(); });
  }
  static void on_null(void* self) {
    guarded(self, [&](Stream& s) { s.scalar_check(), s.t_.null(), s.item_done(); });
  }
  // What the map layout never holds: byte strings, tags, undefined.
  static void on_other(void* self) {
    guarded(self, [&](Stream&) -> void {
      throw DecodeError(kFormat,
                        "a byte string, tag or undefined, which the map layout never holds");
    });
  }
  static void on_bytes(void* self, cbor_data, std::size_t) { on_other(self); }
  static void on_tag(void* self, uint64_t) { on_other(self); }

  static constexpr cbor_callbacks kCallbacks = {
      .uint8 = on_uint8,
      .uint16 = on_uint16,
      .uint32 = on_uint32,
      .uint64 = on_uint,
      .negint64 = on_negint,
      .negint32 = on_negint32,
      .negint16 = on_negint16,
      .negint8 = on_negint8,
      .byte_string_start = on_other,
      .byte_string = on_bytes,
      .string = on_string,
      .string_start = on_string_start,
      .indef_array_start = on_indef_array_start,
      .array_start = on_array_start,
      .indef_map_start = on_indef_map_start,
      .map_start = on_map_start,
      .tag = on_tag,
      .float2 = on_float,
      .float4 = on_float,
      .float8 = on_double,
      .undefined = on_other,
      .null = on_null,
      .boolean = on_bool,
      .indef_break = on_break,
  };

  Target& t_;
  std::vector<Frame> stack_;
  std::string text_;
  std::exception_ptr error_;
};

class CborStreamDecoder : public json::EventDecoderFor<CborStreamDecoder> {
 public:
  CborStreamDecoder() : EventDecoderFor(kFormat) {}
  template <class Target>
  static void walk(std::string_view input, Target& target) {
    Stream<Target>(target).run(input);
  }
};

}  // namespace
}  // namespace wb::cbor

WB_DEFINE_DECODER(cbor, libcbor_stream, wb::cbor::CborStreamDecoder)
