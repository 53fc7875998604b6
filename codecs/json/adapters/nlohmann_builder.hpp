// What the nlohmann/json writers share (json nlohmann, the wcfjson writer): a
// sink that builds an ordered_json value, so that member order is the
// writer's (the schema's, as OData writes it; the infoset's), for dump().
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/tokens.hpp"

namespace wb::json {

class NlohmannBuilder {
 public:
  static constexpr std::string_view kLibrary = token::encoder_json_nlohmann;
  using Json = nlohmann::ordered_json;

  // Starts a new value.
  void reset() {
    stack_.clear();
    root_ = nullptr;
  }
  Json& root() { return root_; }

  // write_feed's sink (and infoset_to_json's, with number text converted).
  // stack_ holds the open containers; its pointers stay valid because a
  // container only grows while it is the innermost one open.
  void start_object() { stack_.push_back(&place(Json::object())); }
  void end_object() { stack_.pop_back(); }
  void start_array() { stack_.push_back(&place(Json::array())); }
  void end_array() { stack_.pop_back(); }
  void key(std::string_view k) { key_.assign(k); }
  void string(std::string_view v) { place(Json(v)); }
  void int32(int32_t v) { place(Json(v)); }
  void integer(int64_t v) { place(Json(v)); }
  void number(double v) { place(Json(v)); }  // dump(): shortest round-trip form
  void boolean(bool v) { place(Json(v)); }
  void null() { place(Json(nullptr)); }

 private:
  Json& place(Json&& v) {
    if (stack_.empty()) return root_ = std::move(v);
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return parent.back();
    }
    return *parent.emplace(key_, std::move(v)).first;
  }

  Json root_;
  std::vector<Json*> stack_;
  std::string key_;
};

}  // namespace wb::json
