// parse_only() has no dataset to go by: a protobuf feed says which it is by
// the number of its first field (message 1, airport 2, science 3; see
// message.proto), so parse-only parses the message type decode does. Bytes
// that do not parse as that type are tried as the other feeds before they
// are refused: decode, which knows its dataset, may accept them as another
// (the rows of a feed can follow an unknown field), and parse-only must
// accept what decode accepts (the fuzz targets hold it to that).
#pragma once

#include <string_view>

#include "codecs/codec.hpp"
#include "generators/model.hpp"

namespace wb::protobuf {

// f.template operator()<T>() for the record type the payload's first tag
// names, then for the other two if that throws DecodeError; the last
// DecodeError if none parses.
template <class F>
auto with_feed_type(std::string_view input, F&& f) {
  const unsigned char tag = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  const int first = tag == (1 << 3 | 2) ? 0 : tag == (2 << 3 | 2) ? 1 : 2;
  for (int i = 0;; ++i) {
    try {
      switch ((first + i) % 3) {
        case 0:
          return f.template operator()<Message>();
        case 1:
          return f.template operator()<Airport>();
        default:
          return f.template operator()<ScienceRow>();
      }
    } catch (const DecodeError&) {
      if (i == 2) throw;
    }
  }
}

}  // namespace wb::protobuf
