// nlohmann/json as the infoset's JSON writer: the infoset is turned into an
// ordered_json value (member order is the infoset's) and dump()ed. nlohmann
// has no raw numbers, so number text becomes an integer or a double first
// (exact: dump() writes the shortest round-trip form).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "codecs/common/text.hpp"
#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {

class NlohmannWriter {
 public:
  static constexpr std::string_view kName = "nlohmann";
  using Json = nlohmann::ordered_json;

  template <class Dom>
  void write(Dom& dom, typename Dom::Node root, std::string& out) {
    stack_.clear();
    infoset_to_json(dom, root, *this, false, scratch_);
    out.clear();
    append_escaping_solidus(out, root_.dump());
    root_ = nullptr;  // free the tree now rather than at the next call
  }

  // infoset_to_json's target. Pointers in stack_ stay valid because a
  // container only grows while it is the innermost one open.
  void start_object() { stack_.push_back(&place(Json::object())); }
  void end_object() { stack_.pop_back(); }
  void start_array() { stack_.push_back(&place(Json::array())); }
  void end_array() { stack_.pop_back(); }
  void key(std::string_view k) { key_.assign(k); }
  void string(std::string_view v) { place(Json(v)); }
  void number(std::string_view text) {
    if (text.find_first_of(".eE") == std::string_view::npos)
      if (auto i = text::parse_int64(text)) return void(place(Json(*i)));
    const auto d = text::parse_double(text);
    if (!d) throw std::runtime_error("nlohmann: '" + std::string(text) + "' is not a number");
    place(Json(*d));
  }
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
  std::string key_, scratch_;
};

}  // namespace wb::wcfjson
