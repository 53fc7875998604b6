// What an Accessor (codecs/codec.hpp) folds the fields it reads into, and
// the dispatch over datasets every accessor shares: an adapter writes
//   template <class T, class Fold>
//   void walk(std::string_view input, bool verify, Fold& fold);
// calling fold.rows(n) for every list, then per row every field in schema
// order (generators/model.hpp): fold.value(v) for numbers (DateTime as its
// ticks), fold.text(view) for strings; a list of records (Airport::Contacts)
// as rows(n) then each record's fields.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb {

// Whole: fold every byte of every string (content_digest); otherwise each
// string's size and its first and last byte, which is what reading a view
// touches (access).
template <bool Whole>
class AccessFold {
 public:
  void rows(std::size_t n) { mix(n); }
  void value(int32_t v) { mix(static_cast<uint32_t>(v)); }
  void value(int64_t v) { mix(static_cast<uint64_t>(v)); }
  void value(double v) { mix(std::bit_cast<uint64_t>(v)); }
  void text(std::string_view s) {
    mix(s.size());
    if constexpr (Whole) {
      for (char c : s) mix(static_cast<unsigned char>(c));
    } else if (!s.empty()) {
      mix(static_cast<unsigned char>(s.front()) | static_cast<unsigned char>(s.back()) << 8);
    }
  }
  uint64_t result() const { return h_; }

 private:
  // A multiply carries a difference only upwards; the shift brings the high
  // bits back down, so two flips of a sign bit do not cancel.
  void mix(uint64_t v) {
    h_ = (h_ ^ v) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    h_ ^= h_ >> 29;
  }
  uint64_t h_ = 0xcbf29ce484222325ull;
};

// The digest an accessor's content_digest() returns for a payload of records.
uint64_t content_digest(const Records& records);

template <class Impl>
class AccessorFor : public Accessor {
 public:
  std::uint64_t access(std::string_view input, DatasetKind kind, bool verify) final {
    AccessFold<false> fold;
    walk(input, kind, verify, fold);
    return fold.result();
  }
  std::uint64_t content_digest(std::string_view input, DatasetKind kind) final {
    AccessFold<true> fold;
    walk(input, kind, true, fold);
    return fold.result();
  }

 private:
  template <class Fold>
  void walk(std::string_view input, DatasetKind kind, bool verify, Fold& fold) {
    Impl& impl = *static_cast<Impl*>(this);
    switch (kind) {
      case DatasetKind::message:
        return impl.template walk<Message>(input, verify, fold);
      case DatasetKind::airport:
        return impl.template walk<Airport>(input, verify, fold);
      case DatasetKind::science:
        return impl.template walk<ScienceRow>(input, verify, fold);
      case DatasetKind::entity:
        break;
    }
    throw DecodeError("entity", std::string(kNoEntityRows));
  }
};

}  // namespace wb
