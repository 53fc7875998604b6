#include "codecs/xml/char_data.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "codecs/codec.hpp"

namespace wb::xml {
namespace {

// Bytes that are copied unchanged: everything but C0 controls, '&' outside
// CDATA and '<' in attributes; tab and LF too, except in attributes.
bool plain(unsigned char c, CharData kind) {
  if (c >= 0x20)
    return kind == CharData::cdata || (c != '&' && (c != '<' || kind != CharData::attribute));
  return kind != CharData::attribute && (c == '\t' || c == '\n');
}

// The length of raw's leading run of plain() bytes from i: eight bytes at a
// time while no byte of a word can stop the run (a C0 control, '&' unless
// CDATA, '<' in attributes), then byte by byte from that word (tab and LF,
// which plain() lets through in text, do not end the run there). Most values
// are one plain run, and this scan is most of what the RapidXML decoder adds
// to its parse. (A 16-byte SSE2 loop in front saves no instructions on
// atom/science/8100: its values average 16 bytes.)
std::size_t plain_run(std::string_view raw, CharData kind, std::size_t i) {
  const char* p = raw.data();
  const std::size_t n = raw.size();
  // Nonzero iff some byte of w is below m (m <= 128) / equals c.
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const auto below = [](std::uint64_t w, unsigned m) { return (w - kOnes * m) & ~w & kHighs; };
  const auto has = [&](std::uint64_t w, unsigned c) { return below(w ^ (kOnes * c), 1); };
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    std::uint64_t stop = below(w, 0x20);
    if (kind != CharData::cdata) stop |= has(w, '&');
    if (kind == CharData::attribute) stop |= has(w, '<');
    if (stop) break;
  }
  while (i < n && plain(p[i], kind)) ++i;
  return i;
}

bool is_char(unsigned long c) {  // XML 1.0 Char production
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// Where append_reference() puts a character: a string, or nowhere (the
// reference is only checked).
struct Discard {
  Discard& operator+=(char) { return *this; }
};

template <class Out>
void append_utf8(Out& out, unsigned long c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

int digit(char c, int base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The reference at ref ("&...;") appended to out; returns its length, or 0
// with *what set when it is not a reference we may replace.
template <class Out>
std::size_t append_reference(std::string_view ref, Out& out, const char** what) {
  const std::size_t semi = ref.find(';');
  if (semi == std::string_view::npos || semi == 1) {
    *what = "'&' that does not start a reference (write &amp;)";
    return 0;
  }
  const std::string_view name = ref.substr(1, semi - 1);
  if (name[0] != '#') {
    static constexpr std::pair<std::string_view, char> kPredefined[] = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    for (const auto& [entity, c] : kPredefined)
      if (name == entity) {
        out += c;
        return semi + 1;
      }
    *what = "reference to an undeclared entity (no DTD is read)";
    return 0;
  }
  const int base = name.size() > 1 && name[1] == 'x' ? 16 : 10;
  const std::string_view digits = name.substr(base == 16 ? 2 : 1);
  unsigned long code = 0;
  for (const char c : digits) {
    const int d = digit(c, base);
    if (d < 0) {
      *what = "malformed character reference";
      return 0;
    }
    code = code * base + d;
    if (code > 0x10FFFF) break;  // no overflow; rejected below
  }
  if (digits.empty() || !is_char(code)) {
    *what = digits.empty() ? "malformed character reference"
                           : "character reference to a non-XML character";
    return 0;
  }
  append_utf8(out, code);
  return semi + 1;
}

}  // namespace

const char* character_error(std::string_view at, CharData kind) {
  const char c = at[0];
  if (c == '&' && kind != CharData::cdata) {
    Discard nowhere;
    const char* what = nullptr;
    return append_reference(at, nowhere, &what) ? nullptr : what;
  }
  if (c == '<' && kind == CharData::attribute) return "'<' in an attribute value";
  if (c == '\0') return "NUL byte in the document";
  if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
    return "a control character (not an XML character)";
  return nullptr;
}

std::string_view char_data(std::string_view raw, CharData kind, std::string& scratch,
                           std::string_view library, long long offset) {
  std::size_t i = plain_run(raw, kind, 0);
  if (i == raw.size()) return raw;
  scratch.assign(raw.data(), i);
  for (;;) {
    const std::size_t from = i;
    i = plain_run(raw, kind, i);
    scratch.append(raw.data() + from, i - from);
    if (i == raw.size()) return scratch;
    const char c = raw[i];
    const char* what = nullptr;
    if (c == '&') {
      if (const std::size_t n = append_reference(raw.substr(i), scratch, &what)) {
        i += n;
        continue;
      }
    } else if (c == '\r' || c == '\n' || c == '\t') {
      if (c == '\r' && i + 1 < raw.size() && raw[i + 1] == '\n') ++i;  // CR LF: one line end
      scratch += kind == CharData::attribute ? ' ' : '\n';             // text: only CR gets here
      ++i;
      continue;
    } else {
      what = character_error(raw.substr(i), kind);  // a control byte, or '<' in a value
    }
    throw DecodeError(library, what, offset + static_cast<long long>(i));
  }
}

namespace {

bool marked(unsigned char c) {
  return c < 0x20 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'';
}

#if defined(__x86_64__)
// The marks of 64 bytes at p, 32 at a time, for CPUs with AVX2 (checked once
// at run time: Debian builds for baseline x86-64, which has SSE2 only). Half
// the instructions of the SSE2 loop below.
[[gnu::target("avx2"), gnu::always_inline]] inline std::uint64_t marks32(const unsigned char* p) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i markup =
      _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')),
                                      _mm256_cmpeq_epi8(v, _mm256_set1_epi8('>'))),
                      _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                                      _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\''))));
  const __m256i c0 = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);  // <= 0x1F
  const __m256i all =
      _mm256_or_si256(markup, _mm256_or_si256(c0, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('&'))));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(all));
}
[[gnu::target("avx2")]] std::size_t scan_avx2(const unsigned char* p, std::size_t n,
                                              std::uint64_t* bits) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) bits[i / 64] = marks32(p + i) | marks32(p + i + 32) << 32;
  return i;
}
// __builtin_cpu_init first: this runs as a static initializer.
const bool kAvx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
#endif

}  // namespace

void SpecialBytes::scan(std::string_view document, Loop loop) {
  base_ = document.data();
  const std::size_t n = document.size();
  bits_.assign(n / 64 + 1, 0);
  const auto* p = reinterpret_cast<const unsigned char*>(document.data());
  std::size_t i = 0;
#if defined(__x86_64__)
  if (kAvx2 && loop == Loop::widest) i = scan_avx2(p, n, bits_.data());
#endif
#if defined(__SSE2__)
  const __m128i amp = _mm_set1_epi8('&');
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i gt = _mm_set1_epi8('>');
  const __m128i quot = _mm_set1_epi8('"');
  const __m128i apos = _mm_set1_epi8('\'');
  const __m128i c0 = _mm_set1_epi8(0x1F);
  const auto mask16 = [&](const unsigned char* q) -> std::uint64_t {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i markup =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, quot), _mm_cmpeq_epi8(v, apos)));
    const __m128i c0_or_amp = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, c0), v),  // v <= 0x1F
                                           _mm_cmpeq_epi8(v, amp));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(markup, c0_or_amp)));
  };
  for (; loop != Loop::bytes && i + 64 <= n; i += 64)
    bits_[i / 64] = mask16(p + i) | mask16(p + i + 16) << 16 | mask16(p + i + 32) << 32 |
                    mask16(p + i + 48) << 48;
#endif
  for (; i < n; ++i)
    if (marked(p[i])) bits_[i / 64] |= std::uint64_t{1} << (i % 64);
}

}  // namespace wb::xml
