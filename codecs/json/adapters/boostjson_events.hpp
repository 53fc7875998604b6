// What the Boost.JSON readers share (json boostjson-sax/-dom, the wcfjson
// reader): parse options, errors, and a basic_parser handler that hands its
// target whole strings, keys and numbers with their text.
#pragma once

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse_options.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::json {

// Boost's default max_depth (32) is far below what other decoders accept
// (simdjson: 1024); the parser keeps its own stack, so 1024 costs nothing
// and still rejects hostile nesting.
inline boost::json::parse_options boostjson_options() {
  boost::json::parse_options o;
  o.max_depth = 1024;
  return o;
}

// On an error, Boost.JSON 1.81's write_some (and parser::write, which calls
// it) returns the bytes consumed up to it: where the error is, or the end of
// the input for an incomplete text. offset is that count plus any BOM skipped.
[[noreturn]] inline void throw_boostjson_error(std::string_view library,
                                               const boost::json::error_code& ec,
                                               std::size_t offset) {
  throw DecodeError(library, ec.message(), static_cast<long long>(offset));
}

// A basic_parser Handler. The parser splits a string, key or number into
// parts (around escapes and at its buffer's end); the target gets it whole:
//   start_object() end_object() start_array() end_array() key(sv) string(sv)
//   boolean(bool) null() int64(v, text) uint64(v, text) floating(d, text)
// Returning true always: targets report a bad shape by throwing DecodeError.
template <class Target>
class BoostjsonEvents {
 public:
  using error_code = boost::json::error_code;
  using string_view = boost::json::string_view;
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

  // Before each parse: a throw may have left a part behind.
  void attach(Target& t) {
    t_ = &t;
    part_.clear();
  }

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_array_begin(error_code&) { return t_->start_array(), true; }
  bool on_array_end(std::size_t, error_code&) { return t_->end_array(), true; }
  bool on_object_begin(error_code&) { return t_->start_object(), true; }
  bool on_object_end(std::size_t, error_code&) { return t_->end_object(), true; }
  bool on_string_part(string_view s, std::size_t, error_code&) { return add(s); }
  bool on_string(string_view s, std::size_t, error_code&) {
    return whole(s, [&](std::string_view v) { t_->string(v); });
  }
  bool on_key_part(string_view s, std::size_t, error_code&) { return add(s); }
  bool on_key(string_view s, std::size_t, error_code&) {
    return whole(s, [&](std::string_view v) { t_->key(v); });
  }
  bool on_number_part(string_view s, error_code&) { return add(s); }
  bool on_int64(int64_t i, string_view s, error_code&) {
    return whole(s, [&](std::string_view text) { t_->int64(i, text); });
  }
  bool on_uint64(uint64_t u, string_view s, error_code&) {
    return whole(s, [&](std::string_view text) { t_->uint64(u, text); });
  }
  bool on_double(double d, string_view s, error_code&) {
    return whole(s, [&](std::string_view text) { t_->floating(d, text); });
  }
  bool on_bool(bool b, error_code&) { return t_->boolean(b), true; }
  bool on_null(error_code&) { return t_->null(), true; }
  // Comments are off (parse_options::allow_comments is false).
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  bool add(string_view s) {
    part_.append(s.data(), s.size());
    return true;
  }
  template <class F>
  bool whole(string_view last, F f) {
    if (part_.empty()) return f(std::string_view(last.data(), last.size())), true;
    add(last);
    f(std::string_view(part_));
    part_.clear();
    return true;
  }

  Target* t_ = nullptr;
  std::string part_;  // the parts so far of one string, key or number
};

// One JSON text (after a BOM) through parser, which must be fresh or reset.
template <class Handler>
void boostjson_parse(std::string_view library, boost::json::basic_parser<Handler>& parser,
                     std::string_view input) {
  const std::string_view json = skip_bom(input);
  const std::size_t bom = input.size() - json.size();
  parser.reset();
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, json.data(), json.size(), ec);
  if (ec) throw_boostjson_error(library, ec, used + bom);
  if (used != json.size())
    throw DecodeError(library, "content after the JSON value", static_cast<long long>(used + bom));
}

}  // namespace wb::json
