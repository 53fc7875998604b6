// gzip: zlib's deflate at level 6 (gzip's and most web servers' default) with
// the gzip wrapper (windowBits 15 + 16), as Content-Encoding: gzip. One
// z_stream each way, reset per call (deflateReset/inflateReset keep the
// window and hash tables allocated).
#include <zlib.h>

#include <climits>
#include <new>

#include "codecs/codec.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/compress/output.hpp"

namespace wb::compress {
namespace {

constexpr std::string_view kLibrary = "gzip";
constexpr int kLevel = 6;
constexpr int kGzipWindow = 15 + 16;  // 32 KiB window, gzip header and trailer
constexpr int kMemLevel = 8;          // zlib's default

Bytef* bytes(std::string_view s) {
  // zlib's next_in is not const in older headers; it never writes through it.
  return reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
}

class GzipCompressor : public Compressor {
 public:
  static constexpr std::string_view kSetting = "zlib deflate level 6, 32 KiB window, gzip wrapper";

  GzipCompressor() {
    if (deflateInit2(&deflate_, kLevel, Z_DEFLATED, kGzipWindow, kMemLevel, Z_DEFAULT_STRATEGY) !=
        Z_OK)
      throw std::bad_alloc();
    if (inflateInit2(&inflate_, kGzipWindow) != Z_OK) {
      deflateEnd(&deflate_);
      throw std::bad_alloc();
    }
  }
  ~GzipCompressor() override {
    deflateEnd(&deflate_);
    inflateEnd(&inflate_);
  }
  GzipCompressor(const GzipCompressor&) = delete;
  GzipCompressor& operator=(const GzipCompressor&) = delete;

  void compress(std::string_view in, std::string& out) override {
    if (in.size() > UINT_MAX) throw std::length_error("gzip: input over 4 GiB");
    deflateReset(&deflate_);
    // deflateBound is enough for one Z_FINISH call to complete.
    out.resize(deflateBound(&deflate_, static_cast<uLong>(in.size())));
    deflate_.next_in = bytes(in);
    deflate_.avail_in = static_cast<uInt>(in.size());
    deflate_.next_out = reinterpret_cast<Bytef*>(out.data());
    deflate_.avail_out = static_cast<uInt>(out.size());
    if (deflate(&deflate_, Z_FINISH) != Z_STREAM_END)
      throw std::runtime_error("gzip: deflate did not finish within deflateBound");
    out.resize(deflate_.total_out);
  }

  void decompress(std::string_view in, std::string& out) override {
    if (in.size() > UINT_MAX) throw DecodeError(kLibrary, "input over 4 GiB");
    inflateReset(&inflate_);
    inflate_.next_in = bytes(in);
    inflate_.avail_in = static_cast<uInt>(in.size());
    Output o(out, 4 * in.size());
    for (;;) {
      const std::size_t used = inflate_.total_out;
      inflate_.next_out = o.room(used);
      inflate_.avail_out = static_cast<uInt>(std::min<std::size_t>(o.room_size(used), UINT_MAX));
      const int rc = inflate(&inflate_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) break;
      if (rc == Z_OK) continue;
      if (rc == Z_BUF_ERROR && inflate_.avail_in == 0)
        throw DecodeError(kLibrary, "truncated stream", static_cast<long long>(in.size()));
      throw DecodeError(kLibrary, inflate_.msg ? inflate_.msg : "inflate failed",
                        static_cast<long long>(in.size() - inflate_.avail_in));
    }
    // gzip allows further members; one response body is one member here.
    if (inflate_.avail_in != 0)
      throw DecodeError(kLibrary, "bytes after the end of the gzip member",
                        static_cast<long long>(in.size() - inflate_.avail_in));
    o.finish(inflate_.total_out);
  }

 private:
  z_stream deflate_{};
  z_stream inflate_{};
};

}  // namespace
}  // namespace wb::compress

WB_DEFINE_COMPRESSOR(gzip, wb::compress::GzipCompressor)
