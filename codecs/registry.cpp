#include "codecs/registry.hpp"

#include <algorithm>

// Declare every factory named in the registry...
#define WB_ENCODER(format, ident, name) \
  std::unique_ptr<wb::Encoder> wb_make_encoder_##format##_##ident();
#define WB_DECODER(format, ident, name, exact) \
  std::unique_ptr<wb::Decoder> wb_make_decoder_##format##_##ident();
#define WB_ROUTER(format, ident, name) \
  std::unique_ptr<wb::Router> wb_make_router_##format##_##ident();
#include "codecs/registry.def"
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ROUTER

namespace wb {

std::span<const CodecEntry> codecs() {
  // ...and list them.
#define WB_ENCODER(format, ident, name) \
  {#format, name, Role::encode, true, &wb_make_encoder_##format##_##ident, nullptr},
#define WB_DECODER(format, ident, name, exact) \
  {#format, name, Role::decode, exact, nullptr, &wb_make_decoder_##format##_##ident},
#define WB_ROUTER(format, ident, name)
  static const CodecEntry kCodecs[] = {
#include "codecs/registry.def"
  };
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ROUTER
  return kCodecs;
}

std::span<const RouterEntry> routers() {
#define WB_ENCODER(format, ident, name)
#define WB_DECODER(format, ident, name, exact)
#define WB_ROUTER(format, ident, name) {#format, name, &wb_make_router_##format##_##ident},
  static const RouterEntry kRouters[] = {
#include "codecs/registry.def"
  };
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ROUTER
  return kRouters;
}

std::vector<const RouterEntry*> routers_of(std::string_view format) {
  std::vector<const RouterEntry*> out;
  for (const auto& r : routers())
    if (r.format == format) out.push_back(&r);
  return out;
}

std::vector<std::string_view> formats() {
  std::vector<std::string_view> out;
  for (const auto& c : codecs())
    if (std::find(out.begin(), out.end(), c.format) == out.end()) out.push_back(c.format);
  return out;
}

std::vector<const CodecEntry*> codecs_of(std::string_view format, Role role) {
  std::vector<const CodecEntry*> out;
  for (const auto& c : codecs())
    if (c.format == format && c.role == role) out.push_back(&c);
  return out;
}

const CodecEntry* find_codec(std::string_view format, Role role, std::string_view library) {
  for (const auto& c : codecs())
    if (c.format == format && c.role == role && c.library == library) return &c;
  return nullptr;
}

}  // namespace wb
