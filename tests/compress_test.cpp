// Every compressor of codecs/compress/: lossless on real payloads and edge
// inputs with one reused instance, and a corrupt or truncated stream is a
// DecodeError, never a crash or a silent short result.
#include <string>

#include "codecs/compress/compressor.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

class CompressTest : public ::testing::TestWithParam<const CompressorEntry*> {
 protected:
  std::unique_ptr<Compressor> c_ = GetParam()->make();
  std::string packed_, back_;
};

std::vector<const CompressorEntry*> compressor_cases() {
  std::vector<const CompressorEntry*> out;
  for (const CompressorEntry& c : compressors()) out.push_back(&c);
  return out;
}

TEST_P(CompressTest, RoundTripsWithOneReusedInstance) {
  std::vector<std::string> inputs = {"", "a", std::string(100000, 'x')};
  std::string noise;
  for (uint32_t i = 0, x = 1; i < 50000; ++i)
    noise += static_cast<char>((x = x * 1103515245 + 12345) >> 24);
  inputs.push_back(noise);  // incompressible: the output grows past the input
  for (std::string_view format : formats())
    inputs.push_back(
        encode(primary_encoder(format), generate(DatasetKind::airport, 101, kDefaultSeed)));
  for (const std::string& in : inputs) {
    c_->compress(in, packed_);
    c_->decompress(packed_, back_);
    EXPECT_EQ(back_, in) << in.size() << " bytes";
  }
  // Text payloads compress: the point of the exercise. (A binary format's
  // doubles are near-random bits: docs/binary-formats.md.) LZ4 and Snappy
  // trade ratio for speed: 2.3-2.5x on this payload, where gzip, brotli and
  // zstd pass 3x.
  const std::string json =
      encode(primary_encoder("json"), generate(DatasetKind::airport, 101, kDefaultSeed));
  c_->compress(json, packed_);
  EXPECT_LT(packed_.size() * 2, json.size());
}

TEST_P(CompressTest, BrokenStreamsAreDecodeErrors) {
  const std::string in =
      encode(primary_encoder(formats().front()), generate(DatasetKind::airport, 20, kDefaultSeed));
  c_->compress(in, packed_);
  const std::string packed = packed_;
  EXPECT_THROW(c_->decompress(packed.substr(0, packed.size() / 2), back_), DecodeError);
  EXPECT_THROW(c_->decompress(packed.substr(0, packed.size() - 1), back_), DecodeError);
  EXPECT_THROW(c_->decompress(packed + "trailing", back_), DecodeError);
  EXPECT_THROW(c_->decompress("not compressed at all", back_), DecodeError);
  // A flipped byte: an error, or (if the format has no checksum) another
  // result, but never a crash; the instance keeps working afterwards.
  std::string flipped = packed;
  flipped[flipped.size() / 2] ^= 0x5A;
  try {
    c_->decompress(flipped, back_);
  } catch (const DecodeError&) {
  }
  c_->decompress(packed, back_);
  EXPECT_EQ(back_, in);
}

INSTANTIATE_TEST_SUITE_P(Registry, CompressTest, ::testing::ValuesIn(compressor_cases()),
                         [](const auto& info) { return gtest_name(info.param->name); });

}  // namespace
}  // namespace wb::test
