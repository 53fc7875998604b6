#include "codecs/xml/prescan.hpp"

#include <string>

#include "codecs/codec.hpp"

namespace wb::xml {

void reject_unbounded(std::string_view library, std::string_view input) {
  int depth = 0;
  for (std::size_t at = input.find('<'); at != std::string_view::npos;
       at = input.find('<', at + 1)) {
    const char next = at + 1 < input.size() ? input[at + 1] : '\0';
    if (next == '/') {
      --depth;
    } else if (next == '!') {
      if (input.substr(at, 9) == "<!DOCTYPE")
        throw DecodeError(library,
                          "a DOCTYPE: DTDs are not accepted (SOAP 1.1 and OData have none)",
                          static_cast<long long>(at));
    } else if (next != '?') {
      const std::size_t end = input.find('>', at);
      if (end == std::string_view::npos) return;  // truncated: the parser reports it
      if (input[end - 1] != '/' && ++depth > kMaxDepth)
        throw DecodeError(library, "elements nested deeper than " + std::to_string(kMaxDepth),
                          static_cast<long long>(at));
    }
  }
}

}  // namespace wb::xml
