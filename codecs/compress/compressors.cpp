#include "codecs/compress/compressor.hpp"

#define WB_COMPRESSOR(ident, name)                              \
  std::unique_ptr<wb::Compressor> wb_make_compressor_##ident(); \
  std::string_view wb_compressor_setting_##ident();
#include "codecs/compress/compressors.def"
#undef WB_COMPRESSOR

namespace wb {

std::span<const CompressorEntry> compressors() {
  // The settings are functions of the adapters: read once, on first use.
#define WB_COMPRESSOR(ident, name) \
  {name, wb_compressor_setting_##ident(), &wb_make_compressor_##ident},
  static const CompressorEntry kCompressors[] = {
#include "codecs/compress/compressors.def"
  };
#undef WB_COMPRESSOR
  return kCompressors;
}

}  // namespace wb
