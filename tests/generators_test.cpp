// Determinism of the datasets and of every encoder's bytes, and the golden
// payloads in fixtures/golden/.
//
// Goldens: fixtures/golden/{format}-{dataset}-3.{json|xml} hold 3 rows with
// seed 42 as written by the format's first encoder in registry order (the
// reference writer). A format without goldens, or a changed payload, fails.
// To (re)write them after an intended change:
//   WIREBENCH_WRITE_GOLDENS=1 build/release/wirebench_tests --gtest_filter='*Golden*'
// then review `git diff fixtures/golden` and commit.
#include <cstdlib>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

constexpr int kGoldenRows = 3;

bool writing_goldens() {
  const char* v = std::getenv("WIREBENCH_WRITE_GOLDENS");
  return v && std::string_view(v) == "1";
}

// ---------------------------------------------------------------- generators

TEST(Generators, SameSeedSameRecords) {
  for (DatasetKind kind : all_datasets()) {
    SCOPED_TRACE(dataset_name(kind));
    EXPECT_EQ(generate(kind, 200, 7), generate(kind, 200, 7));
  }
}

TEST(Generators, RowCountIsExact) {
  for (DatasetKind kind : all_datasets())
    for (int rows : {0, 1, 21}) EXPECT_EQ(row_count(generate(kind, rows)), std::size_t(rows));
}

TEST(Generators, SmallerRunIsPrefixOfLarger) {
  // Benchmarks at different sizes measure the same rows, just more of them.
  for (DatasetKind kind : all_datasets()) {
    SCOPED_TRACE(dataset_name(kind));
    const Records small = generate(kind, 30), large = generate(kind, 90);
    std::visit(
        [&](const auto& s) {
          const auto& l = std::get<std::decay_t<decltype(s)>>(large);
          ASSERT_TRUE(std::equal(s.begin(), s.end(), l.begin()));
        },
        small);
  }
}

TEST(Generators, EveryDatasetHasSpecialTextRows) {
  // Rows 7, 27, ... carry text that needs escaping plus non-ASCII; the
  // row counts the tests use must include at least one of them.
  for (DatasetKind kind : all_datasets()) {
    SCOPED_TRACE(dataset_name(kind));
    ASSERT_GT(test_rows(kind), 7);
    const Records r = generate(kind, test_rows(kind));
    const std::string row7 = describe_row(r, 7), row6 = describe_row(r, 6);
    EXPECT_NE(row7.find("\\x22"), std::string::npos) << row7;  // '"' shown escaped
    EXPECT_NE(row7.find("\\xf0"), std::string::npos) << row7;  // 4-byte UTF-8
    EXPECT_NE(row7.find('<'), std::string::npos) << row7;
    EXPECT_EQ(row6.find("\\x"), std::string::npos) << row6;
  }
}

TEST(Generators, SeedChangesRandomDatasets) {
  // message is fully determined by the row index;
  // the other datasets draw from the seeded stream.
  for (DatasetKind kind : all_datasets()) {
    SCOPED_TRACE(dataset_name(kind));
    if (kind == DatasetKind::message)
      EXPECT_EQ(generate(kind, 50, 42), generate(kind, 50, 43));
    else
      EXPECT_NE(generate(kind, 50, 42), generate(kind, 50, 43));
  }
}

// ---------------------------------------------------------------- encoders

class EncoderDeterminism : public ::testing::TestWithParam<EncoderCase> {};

TEST_P(EncoderDeterminism, SameSeedSameBytes) {
  const EncoderCase& p = GetParam();
  const int rows = test_rows(p.dataset);
  const std::string a = encode(*p.encoder, generate(p.dataset, rows, 42));
  const std::string b = encode(*p.encoder, generate(p.dataset, rows, 42));
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST_P(EncoderDeterminism, ReusedEncoderReplacesOutput) {
  // Benchmarks reuse one encoder and one output string across iterations.
  const EncoderCase& p = GetParam();
  const Records records = generate(p.dataset, test_rows(p.dataset));
  const std::string fresh = encode(*p.encoder, records);
  auto encoder = p.encoder->make_encoder();
  std::string out = "stale bytes that must be replaced";
  encoder->encode(generate(p.dataset, 2), out);
  encoder->encode(records, out);
  EXPECT_EQ(out, fresh);
  encoder->encode(records, out);
  EXPECT_EQ(out, fresh);
}

TEST_P(EncoderDeterminism, DifferentRecordsDifferentBytes) {
  const EncoderCase& p = GetParam();
  const int rows = test_rows(p.dataset);
  const Records a = generate(p.dataset, rows, 42), b = generate(p.dataset, rows, 43);
  if (a == b) {
    // Seed-independent dataset: change the row count instead.
    EXPECT_NE(encode(*p.encoder, a), encode(*p.encoder, generate(p.dataset, rows - 1, 42)));
  } else {
    EXPECT_NE(encode(*p.encoder, a), encode(*p.encoder, b));
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, EncoderDeterminism, ::testing::ValuesIn(encoder_cases()),
                         encoder_case_name);

// ---------------------------------------------------------------- goldens

struct GoldenCase {
  std::string_view format;
  DatasetKind dataset;
};

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> out;
  for (std::string_view format : formats())
    if (!codecs_of(format, Role::encode).empty())
      for (DatasetKind kind : all_datasets()) out.push_back({format, kind});
  return out;
}

// fixtures/golden/{format}-{dataset}-3.{ext}; the extension follows the syntax.
std::filesystem::path golden_path(const GoldenCase& p) {
  return source_dir() / "fixtures" / "golden" /
         (std::string(p.format) + "-" + std::string(dataset_name(p.dataset)) + "-" +
          std::to_string(kGoldenRows) + "." + std::string(payload_extension(p.format)));
}

std::string golden_payload(const GoldenCase& p) {
  return encode(primary_encoder(p.format), generate(p.dataset, kGoldenRows, kDefaultSeed));
}

void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.format << " " << dataset_name(c.dataset);
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesPrimaryEncoder) {
  const GoldenCase& p = GetParam();
  const CodecEntry& encoder = primary_encoder(p.format);
  const std::string payload = golden_payload(p);
  const std::filesystem::path path = golden_path(p);
  const std::string how =
      "to (re)write it, run WIREBENCH_WRITE_GOLDENS=1 wirebench_tests "
      "--gtest_filter='*Golden*', review and commit fixtures/golden/";

  if (!std::filesystem::exists(path)) {
    if (!writing_goldens())
      FAIL() << "no golden file " << path << " (written by " << encoder.library << "); " << how;
    write_file(path, payload);
    std::cout << "wrote " << path << "\n";
    return;
  }
  const std::string golden = read_file(path);
  if (golden == payload) return;
  if (writing_goldens()) {
    write_file(path, payload);
    std::cout << "rewrote " << path << "\n";
    return;
  }
  std::size_t at = 0;
  while (at < golden.size() && at < payload.size() && golden[at] == payload[at]) ++at;
  const std::size_t from = at < 40 ? 0 : at - 40;
  FAIL() << path << " differs from " << encoder.library << "'s output at byte " << at
         << "\n  golden: ..." << golden.substr(from, 100) << "\n  now:    ..."
         << payload.substr(from, 100) << "\nif the change is intended: " << how;
}

TEST_P(Golden, DecodesWithEveryDecoder) {
  // The checked-in bytes (not only today's writer) must stay readable.
  const GoldenCase& p = GetParam();
  const std::filesystem::path path = golden_path(p);
  if (!std::filesystem::exists(path)) GTEST_FAIL() << "no golden file " << path;
  const std::string golden = read_file(path);
  const Records expected = generate(p.dataset, kGoldenRows, kDefaultSeed);
  for (const CodecEntry* d : codecs_of(p.format, Role::decode)) {
    SCOPED_TRACE(d->library);
    try {
      EXPECT_TRUE(same_records(expected, decode(*d, golden, p.dataset), d->exact));
    } catch (const DecodeError& e) {
      ADD_FAILURE() << e.describe();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Golden, ::testing::ValuesIn(golden_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           return gtest_name(std::string(info.param.format) + "_" +
                                             std::string(dataset_name(info.param.dataset)));
                         });

}  // namespace
}  // namespace wb::test
