// parse_only() has no dataset to go by: a protobuf feed says which it is by
// the number of its first field (message 1, airport 2, science 3; see
// message.proto), so parse-only parses the same message type decode does.
#pragma once

#include <string_view>

#include "generators/model.hpp"

namespace wb::protobuf {

// f.template operator()<T>() for the record type the payload's first tag
// names; science for an empty payload or another tag (which then fails or
// parses as unknown fields, as decode would).
template <class F>
auto with_feed_type(std::string_view input, F&& f) {
  const unsigned char tag = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  if (tag == (1 << 3 | 2)) return f.template operator()<Message>();
  if (tag == (2 << 3 | 2)) return f.template operator()<Airport>();
  return f.template operator()<ScienceRow>();
}

}  // namespace wb::protobuf
