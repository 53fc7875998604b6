// msgpack through libmpack (Debian's libmpack-dev, the C library neovim
// uses): the encoder writes tokens (mpack_write) straight into the payload;
// the decoder runs libmpack's tree walker (mpack_parse: tokens with their
// nesting, at most MPACK_MAX_OBJECT_DEPTH = 32 levels) into the shared
// SaxBinder. Strings are read in place: a string's bytes arrive as one
// chunk that points into the input.
// mpack.h defines bool as unsigned when no bool macro exists, which in C++
// would redefine the keyword for everything after it: a bool macro that
// expands to itself keeps it. (mpack_unpack_boolean, declared through that
// macro, returns a C unsigned: the token's value is read directly instead.)
#define bool bool
extern "C" {
#include <mpack.h>
}
#undef bool

#include <exception>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::msgpack {
namespace {

constexpr std::string_view kFormat = "msgpack";
constexpr std::string_view kLibrary = token::decoder_msgpack_libmpack;

// write_map_feed's sink: one token at a time into out, grown as needed.
class MpackSink {
 public:
  explicit MpackSink(std::string& out) : out_(out) {
    out_.resize(out_.capacity() > 64 ? out_.capacity() : 64);
    mpack_tokbuf_init(&tokbuf_);
  }
  ~MpackSink() { out_.resize(pos_); }

  void start_object(std::size_t members) { put(mpack_pack_map(count(members)), 0); }
  void end_object() {}
  void start_array(std::size_t elements) { put(mpack_pack_array(count(elements)), 0); }
  void end_array() {}
  void key(std::string_view k) { string(k); }
  void string(std::string_view v) {
    put(mpack_pack_str(count(v.size())), 0);
    if (!v.empty()) put(mpack_pack_chunk(v.data(), count(v.size())), v.size());
  }
  void int32(int32_t v) { put(mpack_pack_sint(v), 0); }
  // float32 where it holds the double exactly, as nlohmann writes it.
  void number(double v) { put(mpack_pack_float_fast(v), 0); }

 private:
  static mpack_uint32_t count(std::size_t n) {
    if (n > UINT32_MAX) throw std::length_error("msgpack: more than 2^32-1 items or bytes");
    return static_cast<mpack_uint32_t>(n);
  }
  // Room for the token's head and its bytes first, so one write takes it all.
  void put(const mpack_token_t& tok, std::size_t bytes) {
    const std::size_t need = bytes + MPACK_MAX_TOKEN_LEN;
    if (out_.size() - pos_ < need) out_.resize(std::max(out_.size() * 2, pos_ + need));
    char* at = out_.data() + pos_;
    std::size_t left = out_.size() - pos_;
    mpack_write(&tokbuf_, &at, &left, &tok);
    pos_ = out_.size() - left;
  }

  std::string& out_;
  std::size_t pos_ = 0;
  mpack_tokbuf_t tokbuf_;
};

class MpackEncoder : public EncoderFor<MpackEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    MpackSink sink(out);
    json::write_map_feed(sink, rows);
  }
};

// The walker's callbacks, over any target of the binder's event set. A C
// callback cannot throw through libmpack: it keeps the exception and stops
// the walk (MPACK_EXCEPTION), and parse() rethrows it.
template <class Target>
struct Walk {
  Target& target;
  std::string pieces;  // a string that arrived in several chunks (never, for a whole input)
  std::exception_ptr error;

  // node->data[0].p: the string's bytes when they came in one chunk;
  // node->data[1].u: 1 if the node is a map key.
  static void enter(mpack_parser_t* p, mpack_node_t* n) {
    auto& w = *static_cast<Walk*>(p->data.p);
    try {
      mpack_node_t* parent = MPACK_PARENT_NODE(n);
      const bool key = parent && parent->tok.type == MPACK_TOKEN_MAP && !parent->key_visited;
      if (key && n->tok.type != MPACK_TOKEN_STR)
        throw DecodeError(kFormat, "a map key that is not a string");
      switch (n->tok.type) {
        case MPACK_TOKEN_NIL:
          return w.target.null();
        case MPACK_TOKEN_BOOLEAN:
          return w.target.boolean(n->tok.data.value.lo != 0);
        case MPACK_TOKEN_UINT:
          return w.target.unsigned_integer(mpack_unpack_uint(n->tok));
        case MPACK_TOKEN_SINT:
          return w.target.integer(mpack_unpack_sint(n->tok));
        case MPACK_TOKEN_FLOAT:
          return w.target.number(mpack_unpack_float_fast(n->tok));
        case MPACK_TOKEN_MAP:
          return w.target.start_object();
        case MPACK_TOKEN_ARRAY:
          return w.target.start_array();
        case MPACK_TOKEN_STR:
          n->data[1].u = key;
          w.pieces.clear();
          return;
        case MPACK_TOKEN_CHUNK:
          if (parent->tok.type != MPACK_TOKEN_STR) return;  // bin, ext: ignored bytes
          if (parent->pos == 0 && n->tok.length == parent->tok.length) {
            parent->data[0].p = const_cast<char*>(n->tok.data.chunk_ptr);
          } else {
            w.pieces.append(n->tok.data.chunk_ptr, n->tok.length);
          }
          return;
        case MPACK_TOKEN_BIN:
        case MPACK_TOKEN_EXT:
          if constexpr (std::is_same_v<Target, json::IgnoreEvents>) return;
          throw DecodeError(kFormat, "a bin or ext value, which the map layout never holds");
      }
    } catch (...) {
      w.error = std::current_exception();
      p->status = MPACK_EXCEPTION;
    }
  }

  static void exit(mpack_parser_t* p, mpack_node_t* n) {
    auto& w = *static_cast<Walk*>(p->data.p);
    try {
      switch (n->tok.type) {
        case MPACK_TOKEN_MAP:
          return w.target.end_object();
        case MPACK_TOKEN_ARRAY:
          return w.target.end_array();
        case MPACK_TOKEN_STR: {
          const std::string_view s =
              n->data[0].p ? std::string_view(static_cast<const char*>(n->data[0].p), n->tok.length)
                           : std::string_view(w.pieces);
          return n->data[1].u ? w.target.key(s) : w.target.string(s);
        }
        default:
          return;
      }
    } catch (...) {
      w.error = std::current_exception();
      p->status = MPACK_EXCEPTION;
    }
  }
};

class MpackDecoder : public json::EventDecoderFor<MpackDecoder> {
 public:
  MpackDecoder() : EventDecoderFor(kFormat) {}
  template <class Target>
  void walk(std::string_view input, Target& target) {
    Walk<Target> state{target, {}, nullptr};
    mpack_parser_init(&parser_, 0);
    parser_.data.p = &state;
    const char* at = input.data();
    std::size_t left = input.size();
    const int status = mpack_parse(&parser_, &at, &left, &Walk<Target>::enter, &Walk<Target>::exit);
    const auto offset = static_cast<long long>(input.size() - left);
    switch (status) {
      case MPACK_OK:
        if (left == 0) return;
        throw DecodeError(kLibrary, "bytes after the end of the value", offset);
      case MPACK_EOF:
        throw DecodeError(kLibrary, "truncated: the value is incomplete", offset);
      case MPACK_ERROR:
        throw DecodeError(kLibrary, "invalid type byte", offset);
      case MPACK_NOMEM:
        throw DecodeError(kLibrary, "nested deeper than its walker's 32 levels", offset);
      default:  // MPACK_EXCEPTION
        std::rethrow_exception(state.error);
    }
  }

 private:
  mpack_parser_t parser_;
};

}  // namespace
}  // namespace wb::msgpack

WB_DEFINE_ENCODER(msgpack, libmpack, wb::msgpack::MpackEncoder)
WB_DEFINE_DECODER(msgpack, libmpack, wb::msgpack::MpackDecoder)
