// The binary formats (WB_FORMAT lines of syntax binary), from the registry:
// - exact round trips of the values a text format never has to carry bit
//   for bit: +-0.0, NaNs with payloads, subnormals, the largest and smallest
//   doubles, infinities, int32 extremes, ticks before 1970, empty, non-ASCII
//   and escape-worthy strings; an encoder labelled "drops -0.0" must drop it
//   and keep everything else;
// - a decoder refuses the payload of every other format with a DecodeError;
// - accessors read exactly the records' values in place (their content
//   digest), verified or not, refuse another dataset, and survive every
//   truncation when verifying.
// Truncation of every decoder at every byte is bad_input_test.cpp's.
#include <cmath>
#include <limits>

#include "codecs/common/access_fold.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

using Limits = std::numeric_limits<double>;

std::vector<double> special_doubles() {
  return {0.0,
          -0.0,
          std::bit_cast<double>(uint64_t{0x7FF8000000000123}),  // a quiet NaN with a payload
          std::bit_cast<double>(uint64_t{0xFFF4000000000001}),  // a negative signalling NaN
          Limits::denorm_min(),
          -Limits::denorm_min(),
          std::bit_cast<double>(uint64_t{0x000FFFFFFFFFFFFF}),  // the largest subnormal
          Limits::min(),
          Limits::max(),
          -Limits::max(),
          Limits::infinity(),
          -Limits::infinity(),
          0.1,
          -1e-300};
}

std::vector<std::string> special_strings() {
  return {"", "Z\xC3\xBCrich \xE2\x80\x93 \xE6\x9D\xB1\xE4\xBA\xAC \xF0\x9F\x98\x80",
          "q\"uote\\back<lt>&amp;\n\t\r\x01\x1F\x7F", std::string(300, 'w')};
}

Records special_records(DatasetKind kind) {
  const auto d = special_doubles();
  const auto s = special_strings();
  switch (kind) {
    case DatasetKind::message: {
      std::vector<Message> rows;
      const int32_t ids[] = {0, -1, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()};
      for (std::size_t i = 0; i < s.size(); ++i) rows.push_back({ids[i % 4], s[i]});
      return rows;
    }
    case DatasetKind::airport: {
      std::vector<Airport> rows;
      for (std::size_t i = 0; i < d.size(); ++i) {
        Airport a{{}, d[i], d[d.size() - 1 - i], s[i % s.size()]};
        for (std::size_t c = 0; c < i % 3; ++c) a.Contacts.push_back({s[(i + c) % s.size()], ""});
        rows.push_back(a);
      }
      return rows;
    }
    case DatasetKind::science:
    case DatasetKind::entity:
      break;
  }
  std::vector<ScienceRow> rows;
  const int64_t ticks[] = {0, -1, 1, -621'355'968'000'000'000, 2'534'023'007'999'999'999};
  for (std::size_t i = 0; i < d.size(); ++i)
    rows.push_back({s[i % s.size()], s[(i + 1) % s.size()], DateTime{ticks[i % 5]},
                    static_cast<int32_t>(i) - 7, std::numeric_limits<int32_t>::min(), d[i],
                    d[(i + 3) % d.size()], d[(i + 5) % d.size()], d[(i + 7) % d.size()]});
  return rows;
}

// The records with every -0.0 as +0.0: what an encoder that drops -0.0 sends.
Records without_negative_zero(Records records) {
  const auto fix = [](double& v) {
    if (v == 0) v = 0.0;
  };
  std::visit(
      [&](auto& rows) {
        for (auto& r : rows) {
          using T = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<T, Airport>) fix(r.Latitude), fix(r.Longitude);
          if constexpr (std::is_same_v<T, ScienceRow>)
            fix(r.Temp), fix(r.Humidity), fix(r.Pressure), fix(r.Wind);
        }
      },
      records);
  return records;
}

std::vector<PairCase> binary_pairs() {
  std::vector<PairCase> out;
  for (const PairCase& p : pair_cases())
    if (syntax_of(p.encoder->format) == Syntax::binary) out.push_back(p);
  return out;
}

class SpecialValues : public ::testing::TestWithParam<PairCase> {};

TEST_P(SpecialValues, RoundTripBitForBit) {
  const PairCase& p = GetParam();
  const Records original = special_records(p.dataset);
  const bool drops = has_label(p.encoder->labels, label::kDropsNegativeZero);
  const Records expected = drops ? without_negative_zero(original) : original;
  Records got;
  try {
    got = decode(*p.decoder, encode(*p.encoder, original), p.dataset);
  } catch (const DecodeError& e) {
    FAIL() << e.describe();
  }
  // Field by field (any NaN for any NaN), then bit for bit: NaN payloads too.
  const auto difference = first_difference(expected, got, DoubleMatch::identical);
  EXPECT_FALSE(difference) << *difference;
  // An encoder labelled "drops NaN payloads" must change them (so the label
  // cannot go stale); any other keeps every bit.
  if (!has_label(p.encoder->labels, label::kDropsNanPayloads)) {
    EXPECT_EQ(content_digest(got), content_digest(expected)) << "a NaN's bits changed";
  } else if (p.dataset != DatasetKind::message) {
    EXPECT_NE(content_digest(got), content_digest(expected))
        << p.encoder->library << " is labelled \"drops NaN payloads\" but keeps them";
  }
  if (drops && p.dataset != DatasetKind::message) {
    EXPECT_NE(content_digest(got), content_digest(original))
        << p.encoder->library << " is labelled \"drops -0.0\" but keeps it";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, SpecialValues, ::testing::ValuesIn(binary_pairs()),
                         pair_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SpecialValues);

class OtherFormats : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(OtherFormats, TheirPayloadsAreRefused) {
  const CodecEntry& d = *GetParam().decoder;
  for (std::string_view format : formats()) {
    if (format == d.format || codecs_of(format, Role::encode).empty()) continue;
    for (DatasetKind kind : all_datasets()) {
      const std::string payload = encode(primary_encoder(format), generate(kind, 3));
      SCOPED_TRACE(std::string(format) + " " + std::string(dataset_name(kind)));
      try {
        const Records got = decode(d, payload, kind);
        ADD_FAILURE() << d.library << " decoded a " << format << " payload as " << row_count(got)
                      << " rows";
      } catch (const DecodeError& e) {
        EXPECT_FALSE(std::string_view(e.what()).empty());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, OtherFormats, ::testing::ValuesIn(decoder_cases(Syntax::binary)),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OtherFormats);

class Access : public ::testing::TestWithParam<const AccessorEntry*> {};

TEST_P(Access, ReadsTheRecordsInPlace) {
  const AccessorEntry& a = *GetParam();
  auto accessor = a.make();
  for (DatasetKind kind : all_datasets(a.format)) {
    SCOPED_TRACE(dataset_name(kind));
    for (const Records& records : {generate(kind, test_rows(kind)), special_records(kind)}) {
      const std::string payload = padded_copy(encode(primary_encoder(a.format), records));
      EXPECT_EQ(accessor->content_digest(payload, kind), content_digest(records));
      EXPECT_EQ(accessor->access(payload, kind, true), accessor->access(payload, kind, false));
      for (DatasetKind other : all_datasets(a.format))
        if (other != kind) {
          EXPECT_THROW(accessor->access(payload, other, true), DecodeError);
        }
    }
  }
}

TEST_P(Access, SurvivesEveryTruncationWhenVerifying) {
  const AccessorEntry& a = *GetParam();
  auto accessor = a.make();
  const Records records = generate(DatasetKind::airport, 3);
  const std::string payload = encode(primary_encoder(a.format), records);
  int refused = 0;
  for (std::size_t n = 0; n < payload.size(); ++n) {
    const std::string prefix = padded_copy(payload.substr(0, n));
    try {
      accessor->access(prefix, DatasetKind::airport, true);
    } catch (const DecodeError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

std::string accessor_name(const ::testing::TestParamInfo<const AccessorEntry*>& info) {
  return gtest_name(std::string(info.param->format) + "_" + std::string(info.param->library));
}

std::vector<const AccessorEntry*> all_accessors() {
  std::vector<const AccessorEntry*> out;
  for (const AccessorEntry& a : accessors()) out.push_back(&a);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, Access, ::testing::ValuesIn(all_accessors()), accessor_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Access);

}  // namespace
}  // namespace wb::test
