// Snappy in its raw format (a varint of the uncompressed length, then
// literal and copy elements), as RPC stacks send it; Snappy has no level.
// The raw format has no checksum, so a changed byte may decode to other
// bytes; truncation, trailing bytes and a wrong length are errors.
#include <snappy.h>

#include <cstdint>

#include "codecs/codec.hpp"
#include "codecs/compress/compressor.hpp"

namespace wb::compress {
namespace {

constexpr std::string_view kLibrary = "snappy";

// The most a byte of Snappy can stand for: a 3-byte copy element writes 64
// bytes (about 21x). A length above this bound cannot be real, and is
// refused before the output is sized to it (the header alone may claim 4 GiB).
constexpr std::uint64_t kMaxExpansion = 32;

class SnappyCompressor : public Compressor {
 public:
  static constexpr std::string_view kSetting = "snappy raw format (no levels)";

  void compress(std::string_view in, std::string& out) override {
    out.resize(snappy::MaxCompressedLength(in.size()));
    std::size_t n = 0;
    snappy::RawCompress(in.data(), in.size(), out.data(), &n);
    out.resize(n);
  }

  void decompress(std::string_view in, std::string& out) override {
    std::size_t length = 0;
    if (!snappy::GetUncompressedLength(in.data(), in.size(), &length))
      throw DecodeError(kLibrary, "no valid length header", 0);
    if (length > kMaxExpansion * in.size())
      throw DecodeError(
          kLibrary,
          "the header claims " + std::to_string(length) + " bytes, more than the stream can hold",
          0);
    out.resize(length);
    if (!snappy::RawUncompress(in.data(), in.size(), out.data()))
      throw DecodeError(kLibrary, "corrupt or truncated stream");
  }
};

}  // namespace
}  // namespace wb::compress

WB_DEFINE_COMPRESSOR(snappy, wb::compress::SnappyCompressor)
