// nlohmann/json as the infoset's JSON writer: the infoset is turned into an
// ordered_json value (member order is the infoset's) and dump()ed.
#pragma once

#include <string>
#include <string_view>

#include "codecs/json/adapters/nlohmann_builder.hpp"
#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {

class NlohmannWriter {
 public:
  static constexpr std::string_view kName = "nlohmann";

  template <class Dom>
  void write(Dom& dom, typename Dom::Node root, std::string& out) {
    builder_.reset();
    infoset_to_json(dom, root, builder_, false, scratch_);
    out.clear();
    append_escaping_solidus(out, builder_.root().dump());
    builder_.reset();  // free the tree now rather than at the next call
  }

 private:
  NumberTextTo<json::NlohmannBuilder> builder_;
  std::string scratch_;
};

}  // namespace wb::wcfjson
