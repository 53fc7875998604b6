// Every encoder's output decodes, with every decoder of its format, to the
// records it was written from: this covers both "every codec round-trips" and
// "every serializer's output is read by every parser" (the pairing matrix).
#include <set>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// ---------------------------------------------------------------- registry

TEST(Registry, EveryFormatHasAnEncoderAndADecoder) {
  ASSERT_FALSE(formats().empty());
  for (std::string_view format : formats()) {
    EXPECT_FALSE(codecs_of(format, Role::encode).empty()) << format << " has no encoder";
    EXPECT_FALSE(codecs_of(format, Role::decode).empty()) << format << " has no decoder";
  }
}

TEST(Registry, FormatsAreDeclaredOnce) {
  std::set<std::string_view> names;
  for (const FormatEntry& f : format_entries()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name << " is declared twice";
    EXPECT_EQ(f.name.find_first_of("/: \t_"), std::string_view::npos) << f.name;
    EXPECT_NE(f.media_type.find('/'), std::string_view::npos) << f.name << ": " << f.media_type;
    EXPECT_EQ(find_format(f.name), &f);
  }
  for (std::string_view format : formats()) EXPECT_NE(find_format(format), nullptr) << format;
}

TEST(Registry, TokensAreUniqueAndSplittable) {
  // Benchmark names are split on '/', and tokens become gtest names.
  std::set<std::tuple<std::string_view, Role, std::string_view>> seen;
  for (const CodecEntry& c : codecs()) {
    EXPECT_TRUE(seen.insert({c.format, c.role, c.library}).second)
        << c.format << " " << c.library << " is registered twice";
    for (std::string_view token : {c.format, c.library}) {
      EXPECT_FALSE(token.empty());
      EXPECT_EQ(token.find_first_of("/: \t"), std::string_view::npos) << token;
    }
    EXPECT_EQ(find_codec(c.format, c.role, c.library), &c);
    EXPECT_TRUE(c.role == Role::encode ? c.make_encoder != nullptr : c.make_decoder != nullptr);
  }
}

// ---------------------------------------------------------------- round trips

class RoundTrip : public ::testing::TestWithParam<PairCase> {
 protected:
  Records original_ = generate(GetParam().dataset, GetParam().rows);
  std::string payload_ = encode(*GetParam().encoder, original_);
};

TEST_P(RoundTrip, DecodesToTheOriginal) {
  const PairCase& p = GetParam();
  try {
    EXPECT_TRUE(same_records(original_, decode(*p.decoder, payload_, p.dataset), p.decoder->exact));
  } catch (const DecodeError& e) {
    ADD_FAILURE() << e.describe() << "\npayload starts: " << payload_.substr(0, 300);
  }
  try {
    // The figure the benchmark consumes: never 0 for a document, and the
    // same from a fresh decoder and a reused one.
    const std::string padded = padded_copy(payload_);
    auto decoder = p.decoder->make_decoder();
    const std::size_t figure = decoder->parse_only(padded);
    EXPECT_GT(figure, 0u);
    EXPECT_EQ(decoder->parse_only(padded), figure);
    EXPECT_EQ(p.decoder->make_decoder()->parse_only(padded), figure);
  } catch (const DecodeError& e) {
    ADD_FAILURE() << "parse_only: " << e.describe();
  }
  // An empty feed is a valid payload with no rows.
  const Records none = empty_records(p.dataset);
  const std::string empty_feed = encode(*p.encoder, none);
  try {
    EXPECT_TRUE(same_records(none, decode(*p.decoder, empty_feed, p.dataset)));
  } catch (const DecodeError& e) {
    ADD_FAILURE() << "empty feed: " << e.describe() << "\npayload: " << empty_feed;
  }
}

TEST_P(RoundTrip, ReusedDecoderReplacesRows) {
  // Benchmarks reuse one decoder and one Records across iterations: a second
  // decode must replace, not append, and must not depend on leftover state.
  const PairCase& p = GetParam();
  const std::string padded = padded_copy(payload_);
  const std::string other = padded_copy(encode(*p.encoder, generate(p.dataset, 2, 5)));
  auto decoder = p.decoder->make_decoder();
  Records out = empty_records(p.dataset);
  try {
    decoder->decode(other, out);
    decoder->decode(padded, out);
    EXPECT_TRUE(same_records(original_, out, p.decoder->exact));
    decoder->parse_only(padded);
    decoder->decode(padded, out);
    EXPECT_TRUE(same_records(original_, out, p.decoder->exact));
  } catch (const DecodeError& e) {
    ADD_FAILURE() << e.describe();
  }
  // The bytes after the payload (inside the padding) are not part of it:
  // garbage there must not change the result.
  std::string buffer = payload_ + std::string(kInputPadding, '}');
  for (std::size_t i = payload_.size(); i < buffer.size(); i += 3) buffer[i] = '<';
  try {
    decoder->decode(std::string_view(buffer.data(), payload_.size()), out);
    EXPECT_TRUE(same_records(original_, out, p.decoder->exact)) << "with garbage after the end";
  } catch (const DecodeError& e) {
    ADD_FAILURE() << "with garbage after the end: " << e.describe();
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, RoundTrip, ::testing::ValuesIn(pair_cases()), pair_case_name);
// A format may be registered before its decoders land; Registry.* says so.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RoundTrip);

}  // namespace
}  // namespace wb::test
