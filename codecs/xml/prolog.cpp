#include "codecs/xml/prolog.hpp"

#include <string>

#include "codecs/codec.hpp"
#include "codecs/xml/char_data.hpp"

namespace wb::xml {
namespace {

bool same_ascii_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::size_t first_non_ascii(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) return i;
  return std::string_view::npos;
}

// The encoding an XML declaration (decl, from "<?xml" to "?>") names, and
// its offset in decl; empty if it names none or is too malformed to tell
// (the parser then reports it).
std::pair<std::string_view, std::size_t> declared_encoding(std::string_view decl) {
  std::size_t at = decl.find("encoding");
  if (at == std::string_view::npos || at == 0 || !is_xml_space(decl[at - 1])) return {};
  at += 8;
  while (at < decl.size() && is_xml_space(decl[at])) ++at;
  if (at == decl.size() || decl[at] != '=') return {};
  ++at;
  while (at < decl.size() && is_xml_space(decl[at])) ++at;
  if (at == decl.size() || (decl[at] != '"' && decl[at] != '\'')) return {};
  const std::size_t end = decl.find(decl[at], at + 1);
  if (end == std::string_view::npos) return {};
  return {decl.substr(at + 1, end - at - 1), at + 1};
}

}  // namespace

Document open_document(std::string_view library, std::string_view input) {
  const std::string_view body = skip_bom(input);
  const long long skipped = static_cast<long long>(input.size() - body.size());
  const auto refuse = [&](const std::string& what, std::size_t at) {
    throw DecodeError(library, what, skipped + static_cast<long long>(at));
  };
  if (body.starts_with("\xFE\xFF") || body.starts_with("\xFF\xFE") ||
      body.substr(0, 4).find('\0') != std::string_view::npos)
    refuse("a UTF-16 or UTF-32 document: payloads are UTF-8", 0);
  std::size_t i = 0;
  if (body.starts_with("<?xml") && body.size() > 5 && is_xml_space(body[5])) {
    const std::size_t end = body.find("?>");
    if (end == std::string_view::npos) return {body, skipped};  // the parser reports it
    const auto [encoding, at] = declared_encoding(body.substr(0, end));
    // Netflix's feeds declare iso-8859-1 and are ASCII, the same bytes in
    // UTF-8: only a byte that would read differently is refused.
    if (!encoding.empty() && !same_ascii_ignoring_case(encoding, "utf-8"))
      if (const std::size_t high = first_non_ascii(body); high != std::string_view::npos)
        refuse(
            "encoding \"" + std::string(encoding) + "\" and a byte above 0x7F: payloads are UTF-8",
            high);
    i = end + 2;
  }
  // Misc* (comments, PIs, white space), then a DOCTYPE or the root element.
  while (i < body.size()) {
    if (is_xml_space(body[i])) {
      ++i;
      continue;
    }
    const std::string_view rest = body.substr(i);
    // past the close of a construct opened by open; false if it has none
    const auto skip = [&](std::string_view open, std::string_view close) {
      const std::size_t end = rest.find(close, open.size());
      if (end == std::string_view::npos) return false;
      i += end + close.size();
      return true;
    };
    if (rest.starts_with("<!--")) {
      if (!skip("<!--", "-->")) break;
    } else if (rest.starts_with("<?")) {
      if (!skip("<?", "?>")) break;
    } else {
      if (rest.starts_with("<!DOCTYPE")) refuse(std::string(kDoctypeRefused), i);
      break;
    }
  }
  return {body, skipped};
}

}  // namespace wb::xml
