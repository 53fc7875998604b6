// zstd at level 3 (the library's default), as Content-Encoding: zstd. One
// ZSTD_CCtx and one ZSTD_DCtx per adapter, reused: ZSTD_compress2 and a
// session reset keep their tables allocated.
#include <zstd.h>

#include <new>
#include <stdexcept>

#include "codecs/codec.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/compress/output.hpp"

namespace wb::compress {
namespace {

constexpr std::string_view kLibrary = "zstd";
constexpr int kLevel = 3;  // ZSTD_CLEVEL_DEFAULT

class ZstdCompressor : public Compressor {
 public:
  static constexpr std::string_view kSetting = "zstd level 3, checksum off (the defaults)";

  ZstdCompressor() : cctx_(ZSTD_createCCtx()), dctx_(ZSTD_createDCtx()) {
    if (!cctx_ || !dctx_) {
      free();
      throw std::bad_alloc();
    }
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, kLevel);
  }
  ~ZstdCompressor() override { free(); }
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  void compress(std::string_view in, std::string& out) override {
    out.resize(ZSTD_compressBound(in.size()));
    // ZSTD_compress2 starts a new frame (a session reset), keeping parameters.
    const std::size_t n = ZSTD_compress2(cctx_, out.data(), out.size(), in.data(), in.size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    out.resize(n);
  }

  void decompress(std::string_view in, std::string& out) override {
    ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
    // A frame written in one call records its size: a first guess, not trusted.
    const unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
    const bool known = declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR &&
                       declared <= 64 * in.size() + 1024;
    Output o(out, known ? static_cast<std::size_t>(declared) + 1 : 4 * in.size());
    ZSTD_inBuffer src{in.data(), in.size(), 0};
    std::size_t used = 0;
    for (;;) {
      ZSTD_outBuffer dst{o.room(used), o.room_size(used), 0};
      const std::size_t rc = ZSTD_decompressStream(dctx_, &dst, &src);
      used += dst.pos;
      if (ZSTD_isError(rc))
        throw DecodeError(kLibrary, ZSTD_getErrorName(rc), static_cast<long long>(src.pos));
      if (rc == 0) break;  // a frame is complete and flushed
      if (src.pos == src.size && dst.pos < dst.size)
        throw DecodeError(kLibrary, "truncated frame", static_cast<long long>(in.size()));
    }
    if (src.pos != src.size)
      throw DecodeError(kLibrary, "bytes after the end of the frame",
                        static_cast<long long>(src.pos));
    o.finish(used);
  }

 private:
  void free() {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }
  ZSTD_CCtx* cctx_;
  ZSTD_DCtx* dctx_;
};

}  // namespace
}  // namespace wb::compress

WB_DEFINE_COMPRESSOR(zstd, wb::compress::ZstdCompressor)
