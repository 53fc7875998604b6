#include "codecs/compress/compressor.hpp"

#include <vector>

// Declared weak, as the registry's factories are (codecs/registry.cpp): a
// compressor whose library was left out of the build (cmake: WB_WITH_<LIB>=OFF)
// leaves its functions undefined, their addresses null, and its line out of
// the list. The executables link the codecs' whole archive.
#define WB_COMPRESSOR(ident, name)                                            \
  [[gnu::weak]] std::unique_ptr<wb::Compressor> wb_make_compressor_##ident(); \
  [[gnu::weak]] std::string_view wb_compressor_setting_##ident();
#include "codecs/compress/compressors.def"
#undef WB_COMPRESSOR

namespace wb {

std::span<const CompressorEntry> compressors() {
  // The settings are functions of the adapters: read once, on first use.
  static const std::vector<CompressorEntry> kBuilt = [] {
    std::vector<CompressorEntry> built;
#define WB_COMPRESSOR(ident, name)            \
  if (&wb_make_compressor_##ident != nullptr) \
    built.push_back({name, wb_compressor_setting_##ident(), &wb_make_compressor_##ident});
#include "codecs/compress/compressors.def"
#undef WB_COMPRESSOR
    return built;
  }();
  return kBuilt;
}

std::vector<std::string_view> left_out_compressors() {
  std::vector<std::string_view> out;
#define WB_COMPRESSOR(ident, name) \
  if (&wb_make_compressor_##ident == nullptr) out.push_back(name);
#include "codecs/compress/compressors.def"
#undef WB_COMPRESSOR
  return out;
}

}  // namespace wb
