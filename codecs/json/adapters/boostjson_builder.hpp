// What the Boost.JSON writers share (json boostjson, the wcfjson writer):
// a sink that builds a boost::json::value through value_stack (each array
// and object is allocated once, at its size, as Boost's own parser does) in
// a monotonic arena, and the serializer writing into the caller's string.
#pragma once

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/tokens.hpp"

namespace wb::json {

class BoostjsonBuilder {
 public:
  static constexpr std::string_view kLibrary = token::encoder_json_boostjson;

  // Starts a new value; the previous one must be gone (its memory is reused).
  void reset() {
    counts_.clear();
    // A fresh arena rather than release(), which 1.81 gets wrong in some
    // states (see boostjson_dom.cpp).
    stack_.reset();
    arena_.emplace();
    stack_.reset(&*arena_);
  }
  boost::json::value release() { return stack_.release(); }

  // write_feed's sink (and infoset_to_json's, with number text converted)
  void start_object() { counts_.push_back(0); }
  void end_object() { stack_.push_object(close()); }
  void start_array() { counts_.push_back(0); }
  void end_array() { stack_.push_array(close()); }
  void key(std::string_view k) { stack_.push_key(k); }
  void string(std::string_view v) {
    placed();
    stack_.push_string(v);
  }
  void int32(int32_t v) { integer(v); }
  void integer(int64_t v) {
    placed();
    stack_.push_int64(v);
  }
  void number(double v) {
    placed();
    stack_.push_double(v);
  }  // Boost: shortest, "1.5E0"
  void boolean(bool v) {
    placed();
    stack_.push_bool(v);
  }
  void null() {
    placed();
    stack_.push_null();
  }

 private:
  // value_stack wants the element count when a container closes; the
  // container itself counts as placed in its parent then.
  std::size_t close() {
    const std::size_t n = counts_.back();
    counts_.pop_back();
    placed();
    return n;
  }
  void placed() {
    if (!counts_.empty()) ++counts_.back();
  }

  std::optional<boost::json::monotonic_resource> arena_;
  boost::json::value_stack stack_;  // keeps its own buffer across values
  std::vector<std::size_t> counts_;
};

// Serializes v into out's own storage (kept sized to its capacity while
// writing, so a reused string is only zero-filled where it grows).
inline void serialize_into(boost::json::serializer& s, const boost::json::value& v,
                           std::string& out) {
  s.reset(&v);
  out.resize(std::max<std::size_t>(out.capacity(), 4096));
  std::size_t used = 0;
  while (!s.done()) {
    if (used == out.size()) out.resize(2 * out.size());
    used += s.read(out.data() + used, out.size() - used).size();
  }
  out.resize(used);
}

}  // namespace wb::json
