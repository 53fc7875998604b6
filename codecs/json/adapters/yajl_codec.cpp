// YAJL: its callback parser feeds the shared SaxBinder, no tree is built;
// yajl_gen writes the feed as a streaming writer into the caller's string.
// Numbers reach the binder as their text (the yajl_number callback), which
// read_number converts exactly; YAJL's own integer and double callbacks
// would convert with strtoll and strtod.
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/json/number_text.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_yajl;

// A callback's context: the events' target, and the exception a target threw
// (a C parser is no place to unwind through), rethrown once YAJL returns.
template <class Target>
struct Context {
  Target& target;
  std::exception_ptr error;
  template <class F>
  static int call(void* ctx, F f) {
    auto& c = *static_cast<Context*>(ctx);
    try {
      f(c.target);
      return 1;
    } catch (...) {
      c.error = std::current_exception();
      return 0;  // cancels the parse
    }
  }
};

std::string_view text(const unsigned char* s, std::size_t n) {
  return {reinterpret_cast<const char*>(s), n};
}

template <class Target>
constexpr yajl_callbacks kCallbacks = {
    [](void* c) { return Context<Target>::call(c, [](Target& t) { t.null(); }); },
    [](void* c, int v) { return Context<Target>::call(c, [&](Target& t) { t.boolean(v); }); },
    nullptr,  // yajl_integer and yajl_double: yajl_number takes every number
    nullptr,
    [](void* c, const char* s, std::size_t n) {
      return Context<Target>::call(c, [&](Target& t) { read_number(kLibrary, {s, n}, t); });
    },
    [](void* c, const unsigned char* s, std::size_t n) {
      return Context<Target>::call(c, [&](Target& t) { t.string(text(s, n)); });
    },
    [](void* c) { return Context<Target>::call(c, [](Target& t) { t.start_object(); }); },
    [](void* c, const unsigned char* s, std::size_t n) {
      return Context<Target>::call(c, [&](Target& t) { t.key(text(s, n)); });
    },
    [](void* c) { return Context<Target>::call(c, [](Target& t) { t.end_object(); }); },
    [](void* c) { return Context<Target>::call(c, [](Target& t) { t.start_array(); }); },
    [](void* c) { return Context<Target>::call(c, [](Target& t) { t.end_array(); }); },
};

struct FreeParser {
  void operator()(yajl_handle h) const { yajl_free(h); }
};

class YajlDecoder : public EventDecoderFor<YajlDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  // YAJL's defaults are the strict ones: UTF-8 validated, no comments, one
  // value and nothing after it. It has no depth limit to set: its state
  // stack is on the heap, one byte per level, and it does not recurse.
  // A handle cannot be reset, so each parse allocates one (a few hundred
  // bytes), as YAJL's own examples do.
  template <class Target>
  static void walk(std::string_view input, Target& target) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    Context<Target> context{target, nullptr};
    std::unique_ptr<yajl_handle_t, FreeParser> h(
        yajl_alloc(&kCallbacks<Target>, nullptr, &context));
    if (!h) throw std::bad_alloc();
    const auto* bytes = reinterpret_cast<const unsigned char*>(json.data());
    yajl_status status = yajl_parse(h.get(), bytes, json.size());
    if (status == yajl_status_ok) status = yajl_complete_parse(h.get());
    if (context.error) std::rethrow_exception(context.error);
    if (status == yajl_status_ok) return;
    // The bytes consumed, the offending one included.
    const std::size_t consumed = yajl_get_bytes_consumed(h.get());
    const std::size_t at = consumed > 0 ? consumed - 1 : 0;
    unsigned char* message = yajl_get_error(h.get(), 0, bytes, json.size());
    std::string what(reinterpret_cast<const char*>(message));
    yajl_free_error(h.get(), message);
    while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.pop_back();
    throw DecodeError(kLibrary, what, static_cast<long long>(at + bom));
  }
};

// write_feed's sink over a yajl_gen; every call's status is checked.
class YajlSink {
 public:
  explicit YajlSink(yajl_gen g) : g_(g) {}
  void start_object() { check(yajl_gen_map_open(g_)); }
  void end_object() { check(yajl_gen_map_close(g_)); }
  void start_array() { check(yajl_gen_array_open(g_)); }
  void end_array() { check(yajl_gen_array_close(g_)); }
  void key(std::string_view k) { string(k); }
  void string(std::string_view v) {
    check(yajl_gen_string(g_, reinterpret_cast<const unsigned char*>(v.data()), v.size()));
  }
  void int32(int32_t v) { check(yajl_gen_integer(g_, v)); }
  void number(double v) { check(yajl_gen_double(g_, v)); }  // "%.20g": exact, not shortest
  void boolean(bool v) { check(yajl_gen_bool(g_, v)); }
  void null() { check(yajl_gen_null(g_)); }

 private:
  static void check(yajl_gen_status s) {
    if (s != yajl_gen_status_ok)
      throw std::runtime_error("yajl: yajl_gen failed (status " + std::to_string(s) + ")");
  }
  yajl_gen g_;
};

class YajlEncoder : public JsonEncoderFor<YajlEncoder> {
 public:
  YajlEncoder() {
    if (!gen_) throw std::bad_alloc();
    // Compact (yajl_gen_beautify off, the default); the text goes straight
    // into the string of the call under way, not into YAJL's own buffer.
    yajl_gen_config(gen_.get(), yajl_gen_print_callback, &YajlEncoder::print, this);
  }
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    out_ = &out;
    yajl_gen_reset(gen_.get(), nullptr);  // also after a failed call
    YajlSink sink(gen_.get());
    write_feed(sink, rows, this->envelope());
  }

 private:
  static void print(void* self, const char* s, std::size_t n) {
    static_cast<YajlEncoder*>(self)->out_->append(s, n);
  }
  std::unique_ptr<struct yajl_gen_t, void (*)(yajl_gen)> gen_{yajl_gen_alloc(nullptr),
                                                              yajl_gen_free};
  std::string* out_ = nullptr;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(yajl, wb::json::YajlDecoder)
WB_DEFINE_JSON_ENCODER(yajl, wb::json::YajlEncoder)
