// CBOR through libcbor: the encoder builds libcbor's item tree (the builder
// API: cbor_new_definite_map & co.) and serializes it (cbor_serialize_alloc);
// the tree decoder is cbor_load behind check_cbor_shape (guard.hpp), with
// the shared DomBinder over the items. The streaming decoder is in
// libcbor_stream.cpp.
#include <cbor.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "codecs/cbor/guard.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::cbor {
namespace {

constexpr std::string_view kTree = token::decoder_cbor_libcbor_tree;

// write_map_feed's sink: a tree of items. A container joins its parent when
// it opens (libcbor takes a reference on add; cbor_move hands ours over), so
// root_ owns the tree and stack_ only points into it; key_ is the pending map
// key (a map takes key and value together).
class CborBuilder {
 public:
  ~CborBuilder() { reset(); }
  void reset() {
    stack_.clear();
    if (root_) cbor_decref(&root_);
    if (key_) cbor_decref(&key_);
  }
  cbor_item_t* root() const { return root_; }

  void start_object(std::size_t n) { open(cbor_new_definite_map(n)); }
  void end_object() { stack_.pop_back(); }
  void start_array(std::size_t n) { open(cbor_new_definite_array(n)); }
  void end_array() { stack_.pop_back(); }
  void key(std::string_view k) { key_ = check(cbor_build_stringn(k.data(), k.size())); }
  void string(std::string_view v) { attach(cbor_build_stringn(v.data(), v.size())); }
  void int32(int32_t v) {
    attach(v >= 0 ? cbor_build_uint32(static_cast<uint32_t>(v))
                  : cbor_build_negint32(static_cast<uint32_t>(-(static_cast<int64_t>(v) + 1))));
  }
  // Always 8 bytes: libcbor's builder keeps the width it is given.
  void number(double v) { attach(cbor_build_float8(v)); }

 private:
  static cbor_item_t* check(cbor_item_t* item) {
    if (!item) throw std::bad_alloc();
    return item;
  }
  void open(cbor_item_t* container) {
    check(container);
    if (stack_.empty())
      root_ = container;
    else
      attach(container);
    stack_.push_back(container);
  }
  // Hands item (our one reference) to the innermost container.
  void attach(cbor_item_t* item) {
    check(item);
    cbor_item_t* parent = stack_.back();
    bool ok;
    if (cbor_isa_map(parent)) {
      ok = cbor_map_add(parent, cbor_pair{cbor_move(key_), cbor_move(item)});
      key_ = nullptr;
    } else {
      ok = cbor_array_push(parent, cbor_move(item));
    }
    if (!ok) throw std::bad_alloc();
  }

  std::vector<cbor_item_t*> stack_;
  cbor_item_t* root_ = nullptr;
  cbor_item_t* key_ = nullptr;
};

class CborEncoder : public EncoderFor<CborEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    json::write_map_feed(builder_, rows);
    unsigned char* bytes = nullptr;
    std::size_t capacity = 0;
    const std::size_t n = cbor_serialize_alloc(builder_.root(), &bytes, &capacity);
    builder_.reset();
    if (n == 0) throw std::bad_alloc();
    out.assign(reinterpret_cast<const char*>(bytes), n);
    std::free(bytes);
  }

 private:
  CborBuilder builder_;
};

// DomBinder's policy over libcbor items.
struct CborDom {
  static constexpr std::string_view kFormat = "cbor";
  using Value = const cbor_item_t*;
  static bool is_object(Value v) { return cbor_isa_map(v); }
  static bool is_array(Value v) { return cbor_isa_array(v); }
  static std::size_t size(Value v) {
    return cbor_isa_map(v) ? cbor_map_size(v) : cbor_isa_array(v) ? cbor_array_size(v) : 0;
  }
  // A text string's bytes; an indefinite one is joined into scratch.
  static std::string_view text(Value v, std::string& scratch) {
    if (cbor_string_is_definite(v))
      return {reinterpret_cast<const char*>(cbor_string_handle(v)), cbor_string_length(v)};
    scratch.clear();
    cbor_item_t** chunks = cbor_string_chunks_handle(v);
    for (std::size_t i = 0; i < cbor_string_chunk_count(v); ++i)
      scratch.append(reinterpret_cast<const char*>(cbor_string_handle(chunks[i])),
                     cbor_string_length(chunks[i]));
    return scratch;
  }
  template <class F>
  static void members(Value v, F f) {
    const cbor_pair* pairs = cbor_map_handle(v);
    std::string scratch;
    for (std::size_t i = 0; i < cbor_map_size(v); ++i) {
      if (!cbor_isa_string(pairs[i].key)) throw DecodeError(kFormat, "a map key that is not text");
      f(text(pairs[i].key, scratch), pairs[i].value);
    }
  }
  template <class F>
  static void elements(Value v, F f) {
    cbor_item_t** items = cbor_array_handle(v);
    for (std::size_t i = 0; i < cbor_array_size(v); ++i) f(items[i]);
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    switch (cbor_typeof(v)) {
      case CBOR_TYPE_UINT:
        return json::store_unsigned(s, record, cbor_get_int(v), kFormat);
      case CBOR_TYPE_NEGINT: {
        const uint64_t n = cbor_get_int(v);  // the value is -1 - n
        if (n <= INT64_MAX) return store_int(kFormat, s, record, -1 - static_cast<int64_t>(n));
        return store_double(kFormat, s, record, -1.0 - static_cast<double>(n));
      }
      case CBOR_TYPE_STRING: {
        std::string scratch;
        return store_string(kFormat, s, record, text(v, scratch));
      }
      case CBOR_TYPE_FLOAT_CTRL:
        if (!cbor_float_ctrl_is_ctrl(v))
          return store_double(kFormat, s, record, cbor_float_get_float(v));
        if (cbor_is_bool(v)) return store_bool(kFormat, s, record, cbor_get_bool(v));
        if (cbor_is_null(v)) return store_null(kFormat, s, record);
        return wrong_type(kFormat, s, "a simple value");
      case CBOR_TYPE_BYTESTRING:
        return wrong_type(kFormat, s, "a byte string");
      case CBOR_TYPE_TAG:
        return wrong_type(kFormat, s, "a tagged value");
      default:
        return wrong_type(kFormat, s, "a map or an array");
    }
  }
};

// One loaded tree, released on every exit.
struct Loaded {
  cbor_item_t* item;
  ~Loaded() {
    if (item) cbor_decref(&item);
  }
};

cbor_item_t* load(std::string_view input) {
  check_cbor_shape(kTree, input);
  cbor_load_result result;
  cbor_item_t* item = cbor_load(reinterpret_cast<cbor_data>(input.data()), input.size(), &result);
  if (!item) {
    std::string what = "malformed";
    switch (result.error.code) {
      case CBOR_ERR_NOTENOUGHDATA:
      case CBOR_ERR_NODATA:
        what = "truncated";
        break;
      case CBOR_ERR_MEMERROR:
        what = "out of memory";
        break;
      case CBOR_ERR_SYNTAXERROR:
        what = "syntax error";
        break;
      default:
        break;
    }
    throw DecodeError(kTree, what, static_cast<long long>(result.error.position));
  }
  if (result.read != input.size()) {
    Loaded release{item};
    throw DecodeError(kTree, "bytes after the end of the value",
                      static_cast<long long>(result.read));
  }
  return item;
}

class CborTreeDecoder : public DecoderFor<CborTreeDecoder> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    Loaded tree{load(input)};
    json::DomBinder<CborDom>::bind_feed(tree.item, rows, nullptr);
  }
  std::size_t parse_only(std::string_view input) final {
    Loaded tree{load(input)};
    return json::DomBinder<CborDom>::figure(tree.item);
  }
};

}  // namespace
}  // namespace wb::cbor

WB_DEFINE_ENCODER(cbor, libcbor, wb::cbor::CborEncoder)
WB_DEFINE_DECODER(cbor, libcbor_tree, wb::cbor::CborTreeDecoder)
