#include "codecs/xml/adapters/xerces_common.hpp"

#include <xercesc/util/PlatformUtils.hpp>

#include <cstdint>
#include <cstring>

namespace wb::xml::xerces {

namespace {

// The DOM document heap's block sizes, Xerces' documented DOM-heap parameters
// of XMLPlatformUtils::Initialize (its defaults: 16 KB, 512 KB, 256 B). A
// request above kMaxSubAllocation gets a malloc of its own on the document's
// list of single blocks, and each growth of a text node by a later chunk
// (every entity or character reference ends one) walks that whole list to
// free the old buffer (DOMDocumentImpl::release(void*)). By default a text of
// more than 112 UTF-16 units is a single block, so a document of many such
// texts with references parses in time quadratic in their number (40,000 of
// them, 8.5 MB, take seconds rather than milliseconds). Sub-allocating up to 16 KB keeps
// ordinary texts off that list; a quarter of the first block bounds both the
// largest sub-allocation and the space a block can leave unused at its end.
constexpr XMLSize_t kInitialBlock = 0x10000;
constexpr XMLSize_t kMaxBlock = 0x80000;
constexpr XMLSize_t kMaxSubAllocation = 0x4000;
static_assert(kMaxSubAllocation <= kInitialBlock / 4 && kInitialBlock <= kMaxBlock);

}  // namespace

void initialize() {
  static const bool done = [] {
    xercesc::XMLPlatformUtils::Initialize(kInitialBlock, kMaxBlock, kMaxSubAllocation);
    return true;
  }();
  (void)done;
}

namespace {

// Writes the UTF-8 of [s, end) at o; returns the new end. o has room for
// 3 bytes per UTF-16 unit (a surrogate pair: 2 units -> 4 bytes).
char* to_utf8(const XMLCh* s, const XMLCh* end, char* o) {
  while (s < end) {
    // Markup and most text is ASCII: test four units with one load.
    while (end - s >= 4) {
      std::uint64_t w;
      std::memcpy(&w, s, sizeof w);
      if (w & 0xFF80FF80FF80FF80ULL) break;
      o[0] = static_cast<char>(s[0]);
      o[1] = static_cast<char>(s[1]);
      o[2] = static_cast<char>(s[2]);
      o[3] = static_cast<char>(s[3]);
      o += 4;
      s += 4;
    }
    if (s == end) break;
    char32_t c = *s++;
    if (c < 0x80) {
      *o++ = static_cast<char>(c);
      continue;
    }
    if (c < 0x800) {
      *o++ = static_cast<char>(0xC0 | (c >> 6));
      *o++ = static_cast<char>(0x80 | (c & 0x3F));
      continue;
    }
    if (c >= 0xD800 && c <= 0xDFFF) {
      if (c <= 0xDBFF && s < end && *s >= 0xDC00 && *s <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (*s++ - 0xDC00);
        *o++ = static_cast<char>(0xF0 | (c >> 18));
        *o++ = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        *o++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        *o++ = static_cast<char>(0x80 | (c & 0x3F));
        continue;
      }
      c = 0xFFFD;  // a lone surrogate (a parser never hands one out)
    }
    *o++ = static_cast<char>(0xE0 | (c >> 12));
    *o++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *o++ = static_cast<char>(0x80 | (c & 0x3F));
  }
  return o;
}

}  // namespace

std::string_view Utf8Buffer::operator()(const XMLCh* s, std::size_t n) {
  if (buf_.size() < 3 * n) buf_.resize(3 * n);
  char* const begin = buf_.data();
  return {begin, static_cast<std::size_t>(to_utf8(s, s + n, begin) - begin)};
}

std::string_view Utf8Buffer::operator()(const XMLCh* s) {
  return s ? (*this)(s, std::char_traits<XMLCh>::length(s)) : std::string_view();
}

void UriCache::clear() {
  for (Entry& e : entries_) e.key = nullptr;
}

std::string_view UriCache::operator()(const XMLCh* uri) {
  if (!uri) return {};
  for (const Entry& e : entries_)
    if (e.key == uri) return e.utf8;
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % entries_.size();
  const std::size_t n = std::char_traits<XMLCh>::length(uri);
  e.utf8.resize(3 * n);
  e.utf8.resize(static_cast<std::size_t>(to_utf8(uri, uri + n, e.utf8.data()) - e.utf8.data()));
  e.key = uri;
  return e.utf8;
}

void XmlChBuffer::append(std::string_view utf8) {
  // Input is our own valid UTF-8 (the writer's text); no validation here.
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const auto* end = p + utf8.size();
  while (p < end) {
    char32_t c = *p++;
    if (c >= 0xF0 && end - p >= 3) {
      c = ((c & 0x07) << 18) | ((p[0] & 0x3F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      p += 3;
      c -= 0x10000;
      buf_ += static_cast<char16_t>(0xD800 + (c >> 10));
      buf_ += static_cast<char16_t>(0xDC00 + (c & 0x3FF));
      continue;
    }
    if (c >= 0xE0 && end - p >= 2) {
      c = ((c & 0x0F) << 12) | ((p[0] & 0x3F) << 6) | (p[1] & 0x3F);
      p += 2;
    } else if (c >= 0xC0 && end - p >= 1) {
      c = ((c & 0x1F) << 6) | (p[0] & 0x3F);
      p += 1;
    }
    buf_ += static_cast<char16_t>(c);
  }
}

const XMLCh* XmlChBuffer::operator()(std::string_view utf8) {
  buf_.clear();
  append(utf8);
  return buf_.c_str();
}

const XMLCh* XmlChBuffer::qname(std::string_view prefix, std::string_view local) {
  buf_.clear();
  if (!prefix.empty()) {
    append(prefix);
    buf_ += u':';
  }
  append(local);
  return buf_.c_str();
}

const xercesc::InputSource& InputView::operator()(std::string_view bytes) {
  source_.resetMemBufInputSource(reinterpret_cast<const XMLByte*>(bytes.data()), bytes.size());
  return source_;
}

void throw_error(std::string_view library, const XMLCh* message) {
  Utf8Buffer utf8;
  throw DecodeError(library, std::string(utf8(message)));
}

void throw_dom_error(std::string_view library, const xercesc::DOMException& e) {
  Utf8Buffer utf8;
  throw DecodeError(library, "the DOM builder refused the document (DOMException " +
                                 std::to_string(static_cast<int>(e.code)) +
                                 "): " + std::string(utf8(e.getMessage())));
}

void throw_parse_error(std::string_view library, const xercesc::SAXParseException& e) {
  Utf8Buffer utf8;
  std::string what(utf8(e.getMessage()));
  what += " (line " + std::to_string(e.getLineNumber()) + ", column " +
          std::to_string(e.getColumnNumber()) + ")";
  throw DecodeError(library, what);
}

}  // namespace wb::xml::xerces
