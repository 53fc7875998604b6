// LZ4 in its frame format (LZ4F: magic number, frame descriptor, blocks, end
// mark), at the library's defaults: level 0 (LZ4's fast compressor), 64 KiB
// linked blocks, no content size, no checksums. A frame is
// self-delimiting, so truncation and trailing bytes show; without a checksum
// a changed byte may decode to other bytes, as with snappy. One LZ4F_dctx per
// adapter, reset per call; LZ4F_compressFrame keeps its state on the stack
// at this level (no allocation).
#include <lz4frame.h>

#include <cstdint>
#include <stdexcept>

#include "codecs/codec.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/compress/output.hpp"

namespace wb::compress {
namespace {

constexpr std::string_view kLibrary = "lz4";

class Lz4Compressor : public Compressor {
 public:
  static constexpr std::string_view kSetting =
      "LZ4 frame, level 0 (fast), 64 KiB linked blocks, no checksums (the defaults)";

  Lz4Compressor() {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx_, LZ4F_VERSION))) throw std::bad_alloc();
  }
  ~Lz4Compressor() override { LZ4F_freeDecompressionContext(dctx_); }
  Lz4Compressor(const Lz4Compressor&) = delete;
  Lz4Compressor& operator=(const Lz4Compressor&) = delete;

  void compress(std::string_view in, std::string& out) override {
    out.resize(LZ4F_compressFrameBound(in.size(), nullptr));
    const std::size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr);
    if (LZ4F_isError(n)) throw std::runtime_error(std::string("lz4: ") + LZ4F_getErrorName(n));
    out.resize(n);
  }

  // The output grows with what the blocks hold: LZ4 expands at most ~255x,
  // so memory stays bounded by the input.
  void decompress(std::string_view in, std::string& out) override {
    LZ4F_resetDecompressionContext(dctx_);
    Output o(out, 4 * in.size());
    std::size_t used = 0, read = 0;
    for (;;) {
      std::uint8_t* room = o.room(used);  // grows out when it is full
      const std::size_t room_size = o.room_size(used);
      std::size_t dst = room_size;
      std::size_t src = in.size() - read;
      const std::size_t hint = LZ4F_decompress(dctx_, room, &dst, in.data() + read, &src, nullptr);
      read += src;
      used += dst;
      if (LZ4F_isError(hint))
        throw DecodeError(kLibrary, LZ4F_getErrorName(hint), static_cast<long long>(read));
      if (hint == 0) break;  // the frame is complete
      // All input read and room left over: the frame wants bytes that are not there.
      if (read == in.size() && dst < room_size)
        throw DecodeError(kLibrary, "truncated frame", static_cast<long long>(in.size()));
    }
    if (read != in.size())
      throw DecodeError(kLibrary, "bytes after the end of the frame", static_cast<long long>(read));
    o.finish(used);
  }

 private:
  LZ4F_dctx* dctx_ = nullptr;
};

}  // namespace
}  // namespace wb::compress

WB_DEFINE_COMPRESSOR(lz4, wb::compress::Lz4Compressor)
