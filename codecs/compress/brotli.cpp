// brotli at quality 5, as Content-Encoding: br. Quality 5, not the library's
// default 11: 11 is for static assets compressed once ahead of time and runs
// well over 10x slower; servers compressing dynamic responses on the fly use
// 4-6 (ngx_brotli's default is 6, Cloudflare's dynamic setting 4), and 5 is
// the usual middle. Window 22 (4 MiB), the library's default.
// brotli 1.0.9 has no reset for encoder or decoder instances, so unlike gzip
// and zstd nothing can be reused: one instance per call, as servers using
// this version do.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <memory>
#include <stdexcept>

#include "codecs/codec.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/compress/output.hpp"

namespace wb::compress {
namespace {

constexpr std::string_view kLibrary = "br";
constexpr int kQuality = 5;

struct FreeDecoder {
  void operator()(BrotliDecoderState* s) const { BrotliDecoderDestroyInstance(s); }
};

class BrotliCompressor : public Compressor {
 public:
  static constexpr std::string_view kSetting =
      "brotli quality 5 (dynamic-content setting; 11 is for static assets), window 22, generic "
      "mode; no instance reuse (brotli 1.0.9 has no reset)";

  void compress(std::string_view in, std::string& out) override {
    std::size_t n = BrotliEncoderMaxCompressedSize(in.size());
    if (n == 0) throw std::length_error("br: input too large");
    out.resize(n);
    if (!BrotliEncoderCompress(kQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(),
                               reinterpret_cast<const uint8_t*>(in.data()), &n,
                               reinterpret_cast<uint8_t*>(out.data())))
      throw std::runtime_error("br: BrotliEncoderCompress failed");
    out.resize(n);
  }

  void decompress(std::string_view in, std::string& out) override {
    std::unique_ptr<BrotliDecoderState, FreeDecoder> state(
        BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
    if (!state) throw std::bad_alloc();
    const uint8_t* next_in = reinterpret_cast<const uint8_t*>(in.data());
    std::size_t avail_in = in.size();
    Output o(out, 4 * in.size());
    std::size_t used = 0;
    for (;;) {
      uint8_t* next_out = o.room(used);
      std::size_t avail_out = o.room_size(used);
      const BrotliDecoderResult rc = BrotliDecoderDecompressStream(state.get(), &avail_in, &next_in,
                                                                   &avail_out, &next_out, nullptr);
      used = static_cast<std::size_t>(next_out - reinterpret_cast<uint8_t*>(out.data()));
      const auto at = static_cast<long long>(in.size() - avail_in);
      if (rc == BROTLI_DECODER_RESULT_SUCCESS) break;
      if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) continue;
      if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
        throw DecodeError(kLibrary, "truncated stream", at);
      throw DecodeError(kLibrary, BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get())),
                        at);
    }
    if (avail_in != 0)
      throw DecodeError(kLibrary, "bytes after the end of the stream",
                        static_cast<long long>(in.size() - avail_in));
    o.finish(used);
  }
};

}  // namespace
}  // namespace wb::compress

WB_DEFINE_COMPRESSOR(br, wb::compress::BrotliCompressor)
