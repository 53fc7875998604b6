// The seed calibration (docs/methodology.md): with the default seed and the
// field figures' row counts, each format's reference writer produces payloads
// within 10 % of the sizes published for WCF Data Services, Azure Table
// storage and WCF SOAP. A change to a generator or a writer's shape that
// breaks the comparison with the field fails here.
#include <cstdlib>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

struct FieldFigure {
  std::string_view format;
  DatasetKind dataset;
  int rows;
  double bytes;          // published size
  std::string_view who;  // where the figure comes from
};

constexpr double kKiB = 1024;
constexpr FieldFigure kFigures[] = {
    {"atom", DatasetKind::message, 100, 51.2 * kKiB, "WCF Data Services, Atom"},
    {"json", DatasetKind::message, 100, 4.4 * kKiB, "WCF Data Services, JSON"},
    {"soap", DatasetKind::airport, 101, 31'872, "WCF, SOAP"},
    {"json", DatasetKind::airport, 101, 15'862, "WCF, JSON"},
    {"atom", DatasetKind::science, 1000, 1024 * kKiB, "Azure Table page, Atom (> 1 MB)"},
    {"json", DatasetKind::science, 1000, 163 * kKiB, "Azure Table page, JSON"},
};
constexpr double kTolerance = 0.10;

std::string figure_name(const ::testing::TestParamInfo<FieldFigure>& info) {
  const FieldFigure& f = info.param;
  return gtest_name(std::string(f.format) + "_" + std::string(dataset_name(f.dataset)) + "_" +
                    std::to_string(f.rows));
}

class Calibration : public ::testing::TestWithParam<FieldFigure> {};

TEST_P(Calibration, ReferenceSizeIsWithinTenPercentOfTheFieldFigure) {
  const FieldFigure& f = GetParam();
  // The reference writer is looked up by its token: it is the one writer
  // every format has, and the calibration is a property of the shape, not of
  // a library.
  SKIP_WITHOUT(std::string(f.format) + ".encode.reference");
  const CodecEntry* reference = find_codec(f.format, Role::encode, "reference");
  ASSERT_NE(reference, nullptr) << "no reference encoder for " << f.format;
  // The default seed, as the published comparisons would be reproduced.
  const std::string payload = encode(*reference, generate(f.dataset, f.rows, kDefaultSeed));
  const double size = static_cast<double>(payload.size());
  RecordProperty("bytes", std::to_string(payload.size()));
  EXPECT_LE(std::abs(size - f.bytes), kTolerance * f.bytes)
      << f.who << ": " << payload.size() << " B against " << f.bytes << " B published ("
      << (size / f.bytes - 1) * 100 << " %)";
}

INSTANTIATE_TEST_SUITE_P(Field, Calibration, ::testing::ValuesIn(kFigures), figure_name);

}  // namespace
}  // namespace wb::test
