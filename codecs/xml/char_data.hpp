// Character data as it stands in a document -> its value, for parsers that
// hand out raw text (RapidXML in non-destructive mode) (XML 1.0): line ends
// normalised (2.11: CR LF and a lone CR -> LF), the five predefined entities
// and character references replaced (4.6, 4.1) and, in attribute values,
// tab / LF / CR -> space (3.3.3). It rejects what a conforming parser must:
// any other entity (no DTD is read, so none is declared), a bare '&', a
// malformed reference or one to a non-character, '<' in an attribute value,
// a C0 control character. UTF-8 is not validated.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wb::xml {

// White space, S in XML 1.0 (2.3).
inline bool is_xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

enum class CharData {
  text,      // between markup
  cdata,     // inside <![CDATA[...]]>: only line ends change
  attribute  // an attribute value without its quotes
};

// Returns raw itself when nothing changes, else the value built in scratch.
// Throws DecodeError(library, ..., offset + index of the fault in raw).
std::string_view char_data(std::string_view raw, CharData kind, std::string& scratch,
                           std::string_view library, long long offset);

// Why char_data() rejects the byte at[0] in a value of this kind (at runs on
// to the value's or document's end): a '&' that starts no reference it
// replaces, '<' in an attribute value, a C0 control other than tab, LF and
// CR; null when it accepts it. The one statement of those rules, shared with
// the pre-scan that checks them for RapidXML (prescan.hpp).
const char* character_error(std::string_view at, CharData kind);

// The bytes of a document that char_data() may change or reject in some kind
// of value ('&', '<', C0 controls), and the rest of the markup ('>', quotes),
// one bit per byte, found in one SIMD pass over the whole document. A value
// without any is its own value, so the decoder calls char_data() only for
// the others: checked word by word per value, the scan of every text and
// attribute value would be most of what RapidXML decoding adds to its parse.
// reject_unbounded() (prescan.hpp) walks the markup bytes from tag to tag.
class SpecialBytes {
 public:
  // The widest vector loop this CPU has (AVX2, else SSE2), or a narrower one
  // (tests cover each).
  enum class Loop { widest, sse2, bytes };
  void scan(std::string_view document, Loop loop = Loop::widest);
  // char_data(v, any kind, ...) would return v itself (v inside the scanned
  // document): no marked byte in v, or only markup that values keep ('>',
  // quotes: an href with quotes in it).
  bool unchanged(std::string_view v) const {
    if (v.empty()) return true;
    const std::size_t first = static_cast<std::size_t>(v.data() - base_);
    const std::size_t last = first + v.size() - 1;
    std::size_t w = first / 64;
    const std::size_t end = last / 64;
    std::uint64_t bits = bits_[w] & (~std::uint64_t{0} << (first % 64));
    for (;; bits = bits_[++w]) {
      if (w == end) bits &= ~std::uint64_t{0} >> (63 - last % 64);
      for (; bits != 0; bits &= bits - 1) {
        const auto c = static_cast<unsigned char>(base_[w * 64 + std::countr_zero(bits)]);
        if (c < 0x20 || c == '&' || c == '<') return false;
      }
      if (w == end) return true;
    }
  }
  // Bit i % 64 of word i / 64 is set for a marked byte i.
  std::span<const std::uint64_t> words() const { return bits_; }

 private:
  const char* base_ = nullptr;
  std::vector<std::uint64_t> bits_;
};

}  // namespace wb::xml
