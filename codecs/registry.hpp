// Lookup over codecs/registry.def.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/route/router.hpp"

namespace wb {

enum class Role { encode, decode };

struct CodecEntry {
  std::string_view format;   // "json", "atom", "soap", "wcfjson"
  std::string_view library;  // the token --library takes, e.g. "rapidjson-sax"
  Role role;
  bool exact;  // decoders: doubles round-trip exactly
  std::unique_ptr<Encoder> (*make_encoder)();
  std::unique_ptr<Decoder> (*make_decoder)();
};

// Every codec, in registry order.
std::span<const CodecEntry> codecs();
// Formats in registry order, each once.
std::vector<std::string_view> formats();
std::vector<const CodecEntry*> codecs_of(std::string_view format, Role role);
const CodecEntry* find_codec(std::string_view format, Role role, std::string_view library);

// The content routers (WB_ROUTER lines), a list of their own: a router is
// neither an encoder nor a decoder.
struct RouterEntry {
  std::string_view format;
  std::string_view library;
  std::unique_ptr<Router> (*make)();
};
std::span<const RouterEntry> routers();
std::vector<const RouterEntry*> routers_of(std::string_view format);

}  // namespace wb

// An adapter file ends with WB_DEFINE_ENCODER(json, rapidjson, RapidjsonEncoder)
// to define the factory its registry line names.
#define WB_DEFINE_ENCODER(format, ident, Class)                       \
  std::unique_ptr<wb::Encoder> wb_make_encoder_##format##_##ident() { \
    return std::make_unique<Class>();                                 \
  }
#define WB_DEFINE_DECODER(format, ident, Class)                       \
  std::unique_ptr<wb::Decoder> wb_make_decoder_##format##_##ident() { \
    return std::make_unique<Class>();                                 \
  }
