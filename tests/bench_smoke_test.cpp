// Runs the benchmark executable briefly on the field size of each dataset
// (where the default run times every pairing), once per format and dataset,
// and checks its Google Benchmark JSON: every registered codec is benchmarked
// under the names of docs/methodology.md, and no benchmark reports an error
// (a pairing that does not round-trip is skipped with an error).
#include <nlohmann/json.hpp>
#include <set>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// Google Benchmark appends "/threads:N", "/real_time", ... after our fields,
// so a name matches when it is the prefix followed by the end or a '/'.
bool has_benchmark(const std::set<std::string>& names, const std::string& prefix) {
  auto it = names.lower_bound(prefix);
  for (; it != names.end() && it->compare(0, prefix.size(), prefix) == 0; ++it)
    if (it->size() == prefix.size() || (*it)[prefix.size()] == '/') return true;
  return false;
}

// One run per format x dataset (entity is never benchmarked): the test
// shards share them out. One run of everything takes 34 s under ASan, most
// of it wcfjson, and holds up whichever shard draws it.
struct SmokeCase {
  std::string_view format;
  const DatasetInfo* dataset;
};

std::vector<SmokeCase> smoke_cases() {
  std::vector<SmokeCase> out;
  for (std::string_view format : formats())
    for (const DatasetInfo& d : kDatasets)
      if (d.field_rows > 0) out.push_back({format, &d});
  return out;
}

class BenchSmoke : public ::testing::TestWithParam<SmokeCase> {};

TEST_P(BenchSmoke, EveryCodecIsBenchmarkedWithoutErrors) {
  const std::filesystem::path exe = WB_BENCH_EXE;
  ASSERT_TRUE(std::filesystem::exists(exe)) << exe << " was not built";
  const std::string_view format = GetParam().format;
  const DatasetInfo& d = *GetParam().dataset;
  const std::string base =
      std::string(format) + "/" + std::string(d.name) + "/" + std::to_string(d.field_rows) + "/";
  TempFile out(".json");
  const RunResult r = run({exe.string(), "--benchmark_min_time=0.001", "--benchmark_format=json",
                           "--benchmark_out_format=json", "--benchmark_out=" + out.path().string(),
                           "--benchmark_filter=^" + base});
  ASSERT_EQ(r.exit_code, 0) << "stderr:\n" << r.err;
  ASSERT_TRUE(std::filesystem::exists(out.path())) << "no --benchmark_out file";

  nlohmann::json result;
  try {
    result = nlohmann::json::parse(read_file(out.path()));
  } catch (const nlohmann::json::exception& e) {
    FAIL() << "the result file is not JSON: " << e.what();
  }
  ASSERT_TRUE(result.contains("context") && result["context"].is_object());
  ASSERT_TRUE(result.contains("benchmarks") && result["benchmarks"].is_array());
  ASSERT_FALSE(result["benchmarks"].empty());

  std::set<std::string> names;
  for (const auto& b : result["benchmarks"]) {
    const std::string name = b.value("name", "");
    names.insert(name);
    // 1.7 writes error_occurred; 1.8+ writes skipped.
    EXPECT_FALSE(b.value("error_occurred", false))
        << name << ": " << b.value("error_message", std::string("(no message)"));
    EXPECT_FALSE(b.contains("skipped") && b["skipped"].is_boolean() && b["skipped"].get<bool>())
        << name << ": " << b.value("skip_message", std::string("(no message)"));
  }

  const auto encoders = codecs_of(format, Role::encode);
  for (const CodecEntry* e : encoders)
    EXPECT_TRUE(has_benchmark(names, base + "encode/" + std::string(e->library)))
        << "missing " << base << "encode/" << e->library;
  for (const CodecEntry* p : codecs_of(format, Role::decode)) {
    const std::string lib(p->library);
    EXPECT_TRUE(has_benchmark(names, base + "parse-only/" + lib))
        << "missing " << base << "parse-only/" << lib;
    for (const CodecEntry* e : encoders)
      EXPECT_TRUE(has_benchmark(names, base + "decode/" + lib + "/from:" + std::string(e->library)))
          << "missing " << base << "decode/" << lib << "/from:" << e->library;
  }
  for (const AccessorEntry* a : accessors_of(format))
    for (const char* op : {"access/", "access-unverified/"})
      EXPECT_TRUE(has_benchmark(names, base + op + std::string(a->library)))
          << "missing " << base << op << a->library;
}

// The settings the adapters fix in their libraries (hash seeds) are what
// make two runs' instruction counts agree; a result file says which were in
// force, each beside its library's version.
TEST(BenchContext, RecordsEverySettingTheAdaptersFix) {
  if (library_settings().empty()) GTEST_SKIP() << "no adapter fixes a library setting";
  TempFile out(".json");
  const RunResult r =
      run({WB_BENCH_EXE, "--benchmark_min_time=0.001", "--benchmark_out_format=json",
           "--benchmark_out=" + out.path().string(), "--benchmark_filter=^reference/memcpy/"});
  ASSERT_EQ(r.exit_code, 0) << "stderr:\n" << r.err;
  const nlohmann::json context = nlohmann::json::parse(read_file(out.path())).at("context");
  for (const LibrarySetting& s : library_settings()) {
    EXPECT_EQ(context.value(s.context_key, std::string("(missing)")), s.value) << s.context_key;
    const std::string library = s.context_key.substr(0, s.context_key.rfind('.'));
    EXPECT_TRUE(context.contains(library)) << s.context_key << " has no " << library << " version";
  }
}

INSTANTIATE_TEST_SUITE_P(FieldSizes, BenchSmoke, ::testing::ValuesIn(smoke_cases()),
                         [](const ::testing::TestParamInfo<SmokeCase>& info) {
                           return gtest_name(std::string(info.param.format) + "_" +
                                             std::string(info.param.dataset->name));
                         });

}  // namespace
}  // namespace wb::test
