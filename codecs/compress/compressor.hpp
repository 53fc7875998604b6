// The compression seam: HTTP content codings over a payload's bytes, from the
// Debian libraries. A compressor is one adapter file ending with
// WB_DEFINE_COMPRESSOR plus one line in codecs/compress/compressors.def.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

class Compressor {
 public:
  virtual ~Compressor() = default;
  // Replaces out with the compressed bytes of in. out keeps its capacity.
  virtual void compress(std::string_view in, std::string& out) = 0;
  // Replaces out with the bytes in decompresses to. Throws DecodeError on a
  // corrupt or truncated stream.
  virtual void decompress(std::string_view in, std::string& out) = 0;
};

struct CompressorEntry {
  std::string_view name;     // HTTP Content-Encoding token: "gzip", "br", "zstd"
  std::string_view setting;  // level and window, for the result context
  std::unique_ptr<Compressor> (*make)();
};

// Every compressor built, in compressors.def order.
std::span<const CompressorEntry> compressors();
// The tokens of those whose library was left out of the build.
std::vector<std::string_view> left_out_compressors();

}  // namespace wb

// An adapter ends with WB_DEFINE_COMPRESSOR(gzip, GzipCompressor); Class has a
// static constexpr std::string_view kSetting.
#define WB_DEFINE_COMPRESSOR(ident, Class)                       \
  std::unique_ptr<wb::Compressor> wb_make_compressor_##ident() { \
    return std::make_unique<Class>();                            \
  }                                                              \
  std::string_view wb_compressor_setting_##ident() {             \
    return Class::kSetting;                                      \
  }
