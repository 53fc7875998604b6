#include "codecs/codec.hpp"

namespace wb {

std::string DecodeError::describe() const {
  std::string s = library_ + ": " + what();
  if (offset_ >= 0) s += " (at byte " + std::to_string(offset_) + ")";
  return s;
}

std::string padded_copy(std::string_view bytes) {
  std::string s;
  s.reserve(bytes.size() + kInputPadding);
  s.assign(bytes);
  // Make the slack readable and deterministic: resize then shrink keeps it.
  s.resize(bytes.size() + kInputPadding, '\0');
  s.resize(bytes.size());
  return s;
}

}  // namespace wb
