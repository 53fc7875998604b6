// A payload of one dataset decoded as another must be an error, not rows of
// default values: decoders skip unknown members, so only the "no member of
// this type at all" rule stands between a user's typo and a wrong answer.
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

class WrongDataset : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(WrongDataset, IsAnErrorForEveryOtherDataset) {
  const CodecEntry& decoder = *GetParam().decoder;
  const CodecEntry& encoder = primary_encoder(decoder.format);
  for (DatasetKind written : all_datasets()) {
    const std::string payload = encode(encoder, generate(written, 3));
    for (DatasetKind read_as : all_datasets()) {
      if (read_as == written) continue;
      EXPECT_THROW(decode(decoder, payload, read_as), DecodeError)
          << dataset_name(written) << " payload decoded as " << dataset_name(read_as);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, WrongDataset, ::testing::ValuesIn(decoder_cases()),
                         decoder_case_name);

}  // namespace
}  // namespace wb::test
