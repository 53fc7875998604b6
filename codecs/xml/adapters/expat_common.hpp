// What expat's decoder and its routing sniff share: one namespace-aware parser
// reused across documents, configured safely on every reset, and the
// splitting of expat's "uri<sep>local" names.
//
// Security (docs/hostile-input.md): XML_PARAM_ENTITY_PARSING_NEVER and no external
// entity handler, so no DTD or external entity is ever loaded (an external
// entity reference is skipped); internal entities are expanded under expat's
// billion-laughs accounting (2.4+), restated after each reset so the limits
// are visible here rather than implied.
#pragma once

// expat.h declares the billion-laughs setters only under XML_DTD, the option
// Debian's libexpat is built with (its expat_config.h) but that neither its
// CMake package nor its .pc file passes on.
#define XML_DTD 1
#include <expat.h>

#include <memory>
#include <string_view>
#include <utility>

#include "codecs/codec.hpp"

namespace wb::xml::expat {

// Separates URI and local name. Split at the last one: a local name cannot
// hold it, while a URI could spell anything through character references.
inline constexpr char kSeparator = '\x01';
// expat's own defaults: a document may expand to at most 100x its size once
// it is past 8 MiB of expansion.
inline constexpr float kMaxAmplification = 100.0f;
inline constexpr unsigned long long kAmplificationThreshold = 8ull << 20;

// (uri, local); uri empty for a name in no namespace.
inline std::pair<std::string_view, std::string_view> split(const XML_Char* name) {
  const std::string_view n(name);
  const std::size_t sep = n.rfind(kSeparator);
  if (sep == std::string_view::npos) return {{}, n};
  return {n.substr(0, sep), n.substr(sep + 1)};
}

class Parser {
 public:
  XML_Parser get() const { return p_.get(); }
  // Ready for a new document with user_data; XML_ParserReset also clears the
  // handlers and limits, so they are all set here.
  XML_Parser reset(void* user_data) {
    XML_Parser p = p_.get();
    XML_ParserReset(p, nullptr);
    XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetBillionLaughsAttackProtectionMaximumAmplification(p, kMaxAmplification);
    XML_SetBillionLaughsAttackProtectionActivationThreshold(p, kAmplificationThreshold);
    XML_SetUserData(p, user_data);
    return p;
  }
  // Parses the whole document; false when a handler stopped the parser.
  // Throws DecodeError on any other failure; skipped: bytes before xml.
  bool parse(std::string_view library, std::string_view xml, long long skipped) {
    XML_Parser p = p_.get();
    if (XML_Parse(p, xml.data(), static_cast<int>(xml.size()), XML_TRUE) == XML_STATUS_OK)
      return true;
    const XML_Error code = XML_GetErrorCode(p);
    if (code == XML_ERROR_ABORTED) return false;
    const long long at = XML_GetCurrentByteIndex(p);
    throw DecodeError(library, XML_ErrorString(code), at < 0 ? -1 : at + skipped);
  }

 private:
  struct Free {
    void operator()(XML_Parser p) const { XML_ParserFree(p); }
  };
  std::unique_ptr<XML_ParserStruct, Free> p_{XML_ParserCreateNS(nullptr, kSeparator)};
};

}  // namespace wb::xml::expat
