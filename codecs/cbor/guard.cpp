#include "codecs/cbor/guard.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "codecs/codec.hpp"

namespace wb::cbor {

void check_cbor_shape(std::string_view library, std::string_view input) {
  const auto* p = reinterpret_cast<const unsigned char*>(input.data());
  const std::size_t size = input.size();
  std::size_t at = 0;
  // Items still expected by each open container; kOpen: until a break.
  constexpr uint64_t kOpen = UINT64_MAX;
  std::vector<uint64_t> open;
  const auto fail = [&](const std::string& what, std::size_t where) {
    throw DecodeError(library, what + " (the adapter's check before cbor_load)",
                      static_cast<long long>(where));
  };
  do {
    const std::size_t head = at;
    if (at >= size) fail("truncated: a data item is missing", at);
    const unsigned major = p[at] >> 5, info = p[at] & 31;
    ++at;
    uint64_t arg = info;
    if (info >= 24 && info <= 27) {
      const std::size_t n = std::size_t{1} << (info - 24);
      if (size - at < n) fail("truncated head", head);
      arg = 0;
      for (std::size_t i = 0; i < n; ++i) arg = arg << 8 | p[at + i];
      at += n;
    } else if (info >= 28 && info <= 30) {
      fail("reserved additional information " + std::to_string(info), head);
    }
    const bool indefinite = info == 31;
    uint64_t children = 0;  // items this one opens
    switch (major) {
      case 2:
      case 3:  // byte and text strings: definite ones are skipped
        if (indefinite) {
          children = kOpen;
        } else {
          if (arg > size - at) fail("a string longer than the bytes left", head);
          at += arg;
        }
        break;
      case 4:
      case 5:
        if (indefinite) {
          children = kOpen;
        } else {
          const uint64_t left = size - at;
          if (arg > (major == 5 ? left / 2 : left))
            fail("a count of " + std::to_string(arg) + " items in " + std::to_string(left) +
                     " bytes",
                 head);
          children = major == 5 ? arg * 2 : arg;
        }
        break;
      case 6:  // a tag: one item follows
        children = 1;
        break;
      case 7:
        if (indefinite) {  // break
          if (open.empty() || open.back() != kOpen) fail("a break outside an open container", head);
          open.pop_back();
          children = 0;
          goto item_done;
        }
        break;
      default:  // integers
        if (indefinite) fail("an indefinite integer", head);
        break;
    }
    if (children != 0) {
      if (open.size() >= kCborMaxDepth)
        fail("nested more than " + std::to_string(kCborMaxDepth) + " deep", head);
      open.push_back(children);
      continue;
    }
  item_done:
    // A complete item: it counts against its container, which may close.
    while (!open.empty() && open.back() != kOpen && --open.back() == 0) open.pop_back();
  } while (!open.empty());
}

}  // namespace wb::cbor
