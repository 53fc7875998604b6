// Output growth shared by the streaming decompressors: the decompressed size
// is not known up front (an HTTP body carries none), so out grows geometrically
// and is cut to the bytes written at the end. out's capacity survives calls, so
// in a loop over one payload the growth happens once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace wb::compress {

class Output {
 public:
  // first_guess: a size likely to hold the whole result (e.g. 4x the input).
  Output(std::string& out, std::size_t first_guess) : out_(out) {
    out_.resize(std::max({out_.capacity(), first_guess, std::size_t{64}}));
  }
  // Unwritten room after `used` bytes, growing out when there is none.
  std::uint8_t* room(std::size_t used) {
    if (used == out_.size()) out_.resize(out_.size() * 2);
    return reinterpret_cast<std::uint8_t*>(out_.data()) + used;
  }
  std::size_t room_size(std::size_t used) const { return out_.size() - used; }
  void finish(std::size_t used) { out_.resize(used); }

 private:
  std::string& out_;
};

}  // namespace wb::compress
