// The registry's library tokens as constants: an adapter names itself in its
// errors (DecodeError) with the token of its registry line, so the two cannot
// differ, and `wirebench decode`'s message starts with the --library token.
//   token::decoder_json_simdjson_dom == "simdjson-dom"
//   token::encoder_atom_libxml2, token::router_soap_expat_sniff, ...
#pragma once

#include <string_view>

namespace wb::token {

#define WB_FORMAT(ident, name, syntax, media_type)
#define WB_ENCODER(format, ident, name, labels) \
  inline constexpr std::string_view encoder_##format##_##ident = name;
#define WB_DECODER(format, ident, name, exact, labels) \
  inline constexpr std::string_view decoder_##format##_##ident = name;
#define WB_ACCESSOR(format, ident, name, labels)
#define WB_ROUTER(format, ident, name, labels) \
  inline constexpr std::string_view router_##format##_##ident = name;
#define WB_PICK(pick, format, role, name)
#include "codecs/registry.def"
#undef WB_FORMAT
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ACCESSOR
#undef WB_ROUTER
#undef WB_PICK

}  // namespace wb::token
