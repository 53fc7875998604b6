// nlohmann/json: the feed is built as an ordered_json value (member order is
// the schema's, as OData writes it) and serialized with dump().
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

using Json = nlohmann::ordered_json;

// Builds the value tree: stack_ holds the open containers. Pointers stay
// valid because a container only grows while it is the innermost one open.
class OrderedJsonSink {
 public:
  Json& root() { return root_; }
  void start_object() { stack_.push_back(&place(Json::object())); }
  void end_object() { stack_.pop_back(); }
  void start_array() { stack_.push_back(&place(Json::array())); }
  void end_array() { stack_.pop_back(); }
  void key(std::string_view k) { key_ = k; }
  void string(std::string_view v) { place(Json(v)); }
  void int32(int32_t v) { place(Json(v)); }
  void number(double v) { place(Json(v)); }
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

class NlohmannEncoder : public EncoderFor<NlohmannEncoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    write_feed(sink_, rows);
    // dump() is the library's public way out; it returns a new string, so
    // out's old buffer is replaced rather than reused.
    out = sink_.root().dump();
    sink_.root() = nullptr;  // free the tree now rather than at the next call
  }

 private:
  OrderedJsonSink sink_;  // reused for its stack and key buffers
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_ENCODER(json, nlohmann, wb::json::NlohmannEncoder)
