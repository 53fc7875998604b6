#include "codecs/payload_kind.hpp"

#include <cctype>
#include <cstdio>

#include "codecs/codec.hpp"
#include "codecs/common/utf8.hpp"
#include "codecs/registry.hpp"
#include "generators/datasets.hpp"

namespace wb {
namespace {

constexpr std::string_view kOData = "odata:";
constexpr std::string_view kWhiteSpace = " \t\r\n";

std::string_view skip_space(std::string_view s) {
  const std::size_t at = s.find_first_not_of(kWhiteSpace);
  return at == std::string_view::npos ? std::string_view() : s.substr(at);
}

// The XML prolog (declaration, comments, processing instructions, a DOCTYPE
// without an internal subset) skipped: head from the root element's '<'.
std::string_view skip_prolog(std::string_view s) {
  for (s = skip_space(s); s.starts_with("<?") || s.starts_with("<!");) {
    const std::string_view end = s.starts_with("<!--") ? "-->" : s.starts_with("<?") ? "?>" : ">";
    const std::size_t at = s.find(end);
    if (at == std::string_view::npos) return {};
    s = skip_space(s.substr(at + end.size()));
  }
  return s;
}

// An OData feed's kind from a JSON head, or "" for any other JSON.
std::string json_feed(std::string_view head) {
  std::string_view first = skip_space(head.substr(1));
  if (head.starts_with('{') && first.starts_with("\"d\"") &&
      skip_space(first.substr(3)).starts_with(':'))
    return "odata:json-verbose";
  if (head.find("\"@odata.context\"") != std::string_view::npos) return "odata:json-v4";
  if (head.find("\"odata.metadata\"") != std::string_view::npos) return "odata:json";
  return {};
}

// An Atom feed's kind from an XML head (its root element is feed, with any
// prefix, in the Atom namespace), or "" for any other XML.
std::string xml_feed(std::string_view head) {
  const std::string_view root = skip_prolog(head);
  const std::size_t name_end = root.find_first_of(" \t\r\n/>", 1);
  if (name_end == std::string_view::npos) return {};
  const std::string_view name = root.substr(1, name_end - 1);
  const bool feed = name == "feed" || name.ends_with(":feed");
  return feed && head.find("http://www.w3.org/2005/Atom") != std::string_view::npos ? "odata:atom"
                                                                                    : "";
}

}  // namespace

Sniffed sniff_payload(std::string_view head, std::uintmax_t size) {
  if (size > kMaxPayloadBytes)
    return {"", std::to_string(size) + " bytes, over the limit of " +
                    std::to_string(kMaxPayloadBytes) + " bytes (1 GiB)"};
  if (size == 0) return {"", "empty file"};
  if (const std::size_t nul = head.find('\0'); nul != std::string_view::npos)
    return {"", "binary (a NUL byte at byte " + std::to_string(nul) + ")"};
  const std::string_view text = skip_space(skip_bom(head));
  if (text.empty()) return {"", "empty file (only white space)"};
  const char c = text.front();
  if (c == '<') {
    std::string feed = xml_feed(text);
    return {feed.empty() ? "xml" : feed, ""};
  }
  if (c == '{' || c == '[') {
    std::string feed = json_feed(text);
    return {feed.empty() ? "json" : feed, ""};
  }
  if (c == '"' || c == '-' || std::isdigit(static_cast<unsigned char>(c)) ||
      text.starts_with("true") || text.starts_with("false") || text.starts_with("null"))
    return {"json", ""};
  char shown[16];
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f)
    std::snprintf(shown, sizeof shown, "'%c'", c);
  else
    std::snprintf(shown, sizeof shown, "byte 0x%02x", u);
  return {"", std::string("neither JSON nor XML (its text starts with ") + shown + ")"};
}

std::string kind_of_format(std::string_view token) {
  if (token == "json" || token == "xml") return std::string(token);
  const std::string kind =
      token.starts_with(kOData) ? std::string(token) : std::string(kOData) + std::string(token);
  return decoders_format(kind).empty() ? "" : kind;
}

bool split_kind_path(std::string_view text, std::string& kind, std::string& path) {
  std::size_t colon = text.find(':');
  if (colon != std::string_view::npos && is_feed(text)) colon = text.find(':', colon + 1);
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) return false;
  kind = std::string(text.substr(0, colon));
  path = std::string(text.substr(colon + 1));
  return true;
}

std::string utf8_message(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const std::size_t bad = first_invalid_utf8(text);
    out += text.substr(0, bad);
    if (bad == text.size()) break;
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(text[bad]));
    out += hex;
    text.remove_prefix(bad + 1);
  }
  return out;
}

std::string decoders_format(std::string_view kind) {
  if (kind == "json") return "json";
  if (kind == "xml") return "atom";
  if (!is_feed(kind)) return {};
  const FormatEntry* format = find_format(kind.substr(kOData.size()));
  if (!format || format->syntax == Syntax::binary ||
      !defined_for(dataset_info(DatasetKind::entity), format->name) ||
      codecs_of(format->name, Role::decode).empty())
    return {};
  return std::string(format->name);
}

}  // namespace wb
