// A RapidJSON output stream that writes into a caller's std::string, so a
// RapidJSON writer needs no intermediate StringBuffer and no final copy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace wb::json {

// Writes into out's own storage. out is kept sized to its capacity while
// writing, so a reused string is only zero-filled where it grows.
class StringOutput {
 public:
  using Ch = char;
  explicit StringOutput(std::string& out) : out_(out) { grow(out_.capacity()); }
  void Put(char c) {
    Reserve(1);
    data_[pos_++] = c;
  }
  void Reserve(std::size_t n) {
    if (size_ - pos_ < n) grow(std::max(2 * size_, pos_ + n));
  }
  // The string's buffer is held as a pointer, not reached through the
  // string per character: a char store may alias the string, so the
  // compiler would reload its data pointer after every one.
  void PutUnsafe(char c) { data_[pos_++] = c; }
  void Flush() {}
  void finish() { out_.resize(pos_); }

 private:
  void grow(std::size_t size) {
    out_.resize(size);
    data_ = out_.data();
    size_ = out_.size();
  }
  std::string& out_;
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
};
// Found by argument-dependent lookup: RapidJSON's writer reserves once per
// token and then stores unchecked, as with its own StringBuffer.
inline void PutReserve(StringOutput& s, std::size_t n) {
  s.Reserve(n);
}
inline void PutUnsafe(StringOutput& s, char c) {
  s.PutUnsafe(c);
}

}  // namespace wb::json
