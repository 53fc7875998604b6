// The allocation counter behind the memory figures: it must see malloc calls
// made inside C libraries (glibc's strdup, libxml2, Xerces-C), operator new,
// realloc and frees, and nothing while it is off.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmarks/alloc/alloc_counter.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

class AllocCounter : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!alloc::interposed())
      GTEST_SKIP() << "malloc is not interposed in this build (WIREBENCH_COUNT_ALLOCS=OFF)";
  }
};

TEST_F(AllocCounter, SeesEveryStrdupInsideLibc) {
  constexpr int kCopies = 25;
  const char* text = "seventeen bytes!";  // 16 characters + NUL
  std::vector<char*> copies(kCopies);
  alloc::start();
  for (char*& copy : copies) copy = strdup(text);
  const alloc::Totals made = alloc::stop();
  EXPECT_EQ(made.allocs, kCopies);
  EXPECT_EQ(made.bytes, kCopies * 17);
  EXPECT_EQ(made.frees, 0);
  EXPECT_GE(made.peak_bytes, kCopies * 17);

  alloc::start();
  for (char* copy : copies) std::free(copy);
  const alloc::Totals freed = alloc::stop();
  EXPECT_EQ(freed.allocs, 0);
  EXPECT_EQ(freed.frees, kCopies);
  EXPECT_EQ(freed.peak_bytes, 0);  // only frees: the heap never grew
  EXPECT_LE(freed.net_bytes, -kCopies * 17);
}

TEST_F(AllocCounter, SeesOperatorNewAndRealloc) {
  alloc::start();
  auto a = std::make_unique<int[]>(100);
  auto b = std::make_unique<double>(1.0);
  void* grown = std::malloc(10);
  grown = std::realloc(grown, 100000);  // counted as a new block and a free
  std::free(grown);
  const alloc::Totals t = alloc::stop();
  EXPECT_EQ(t.allocs, 4);
  EXPECT_EQ(t.frees, 2);
  EXPECT_EQ(t.bytes, static_cast<int64_t>(100 * sizeof(int) + sizeof(double) + 10 + 100000));
  EXPECT_GE(t.peak_bytes, 100000);
}

// A codec that frees its previous result at the start of the next call: the
// peak and what it retains are of this call's blocks, and freeing the older
// one does not lower them.
TEST_F(AllocCounter, PeakIsOfTheCallsOwnBlocks) {
  // Through volatile pointers: the compiler may elide a malloc/free pair.
  void* (*volatile allocate)(std::size_t) = std::malloc;
  void (*volatile release)(void*) = std::free;
  constexpr std::size_t kDocument = 1 << 20;
  void* previous = allocate(kDocument);
  alloc::start();
  release(previous);
  void* next = allocate(kDocument);
  release(allocate(1000));
  const alloc::Totals t = alloc::stop();
  release(next);
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(t.allocs, 2);
  EXPECT_EQ(t.frees, 2);
  EXPECT_GE(t.peak_bytes, static_cast<int64_t>(kDocument + 1000));
  EXPECT_GE(t.retained_bytes, static_cast<int64_t>(kDocument));
  EXPECT_LT(t.retained_bytes, static_cast<int64_t>(kDocument + 1000));
  EXPECT_GE(t.released_bytes, static_cast<int64_t>(kDocument));
  EXPECT_EQ(t.net_bytes, t.retained_bytes - t.released_bytes);
}

TEST_F(AllocCounter, CountsNothingWhenOff) {
  alloc::start();
  (void)alloc::stop();
  char* copy = strdup("not counted");
  std::free(copy);
  alloc::start();
  const alloc::Totals t = alloc::stop();
  EXPECT_EQ(t.allocs, 0);
  EXPECT_EQ(t.frees, 0);
}

// libxml2 and Xerces-C allocate through malloc from their own shared
// libraries; a DOM decode of twice the rows makes more allocations.
TEST_F(AllocCounter, SeesTheXmlLibrariesAllocations) {
  for (const char* library : {"libxml2-dom", "xerces-dom"}) {
    if (left_out_of_build("atom.decode." + std::string(library))) continue;
    const CodecEntry* dec = find_codec("atom", Role::decode, library);
    ASSERT_NE(dec, nullptr) << library;
    auto count = [&](int rows) {
      const std::string payload =
          encode(primary_encoder("atom"), generate(DatasetKind::airport, rows, 42));
      const std::string padded = padded_copy(payload);
      auto decoder = dec->make_decoder();
      Records out = empty_records(DatasetKind::airport);
      decoder->decode(padded, out);  // warm: buffers sized, as in a benchmark loop
      alloc::start();
      decoder->decode(padded, out);
      return alloc::stop().allocs;
    };
    const int64_t small = count(20);
    const int64_t large = count(40);
    EXPECT_GT(small, 20) << library << ": at least one allocation per row (bound strings)";
    EXPECT_GT(large, small) << library;
  }
}

// A benchmark executable's result file for the benchmarks `filter` selects.
nlohmann::json run_bench(const std::filesystem::path& exe, const std::string& filter) {
  TempFile out(".json");
  const RunResult r =
      run({exe.string(), "--benchmark_min_time=0.001", "--benchmark_out_format=json",
           "--benchmark_out=" + out.path().string(), "--benchmark_filter=" + filter});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return nullptr;
  return nlohmann::json::parse(read_file(out.path()));
}

// The memory executable's result file, or null when it counts no
// allocations (a sanitizer build).
nlohmann::json bench_result(const std::string& filter) {
  auto result = run_bench(WB_BENCH_MEMORY_EXE, filter);
  if (result.is_null()) return result;
  return result["context"].value("allocation_counter", "") == "on" ? result : nullptr;
}

// The timed executable leaves malloc to glibc: no interposer on a timed call.
TEST(AllocCounterBench, TimedExecutableCountsNothing) {
  SKIP_WITHOUT("atom.decode.libxml2-dom");
  const auto result =
      run_bench(WB_BENCH_EXE, "^atom/airport/101/decode/libxml2-dom/from:reference$");
  ASSERT_FALSE(result.is_null());
  EXPECT_EQ(result["context"].value("allocation_counter", ""), "off");
  ASSERT_EQ(result["benchmarks"].size(), 1u);
  EXPECT_FALSE(result["benchmarks"][0].contains("max_bytes_used"))
      << result["benchmarks"][0].dump();
}

// The benchmark executable writes the MemoryManager's figures into the result.
TEST(AllocCounterBench, ResultFileCarriesAllocationsPerIteration) {
  SKIP_WITHOUT("atom.decode.libxml2-dom");
  const auto result = bench_result("^atom/airport/101/decode/libxml2-dom/from:reference$");
  if (result.is_null()) GTEST_SKIP() << "no bench result with the allocation counter";
  ASSERT_EQ(result["benchmarks"].size(), 1u);
  const auto& run = result["benchmarks"][0];
  ASSERT_TRUE(run.contains("allocs_per_iter")) << run.dump();
  EXPECT_GT(run["allocs_per_iter"].get<double>(), 101);
  EXPECT_GT(run["max_bytes_used"].get<double>(), 0);
  EXPECT_GT(run["total_allocated_bytes"].get<double>(), run["max_bytes_used"].get<double>() / 2);
}

// A DOM decoder's peak per call holds at least the document it builds from
// the payload: pugixml and RapidXML copy the payload into their own buffer,
// Xerces builds nodes for all of it.
TEST(AllocCounterBench, DomPeakPerCallExceedsThePayload) {
  // Less a decoder left out of the build with its library.
  std::size_t built = 0;
  for (const char* line :
       {"atom.decode.pugixml-dom", "atom.decode.rapidxml", "atom.decode.xerces-dom"})
    built += !left_out_of_build(line);
  if (built == 0) GTEST_SKIP() << "pugixml, RapidXML and Xerces-C left out of the build";
  const auto result =
      bench_result("^atom/airport/101/decode/(pugixml-dom|rapidxml|xerces-dom)/from:reference$");
  if (result.is_null()) GTEST_SKIP() << "no bench result with the allocation counter";
  const auto payload = static_cast<double>(
      encode(primary_encoder("atom"), generate(DatasetKind::airport, 101, 42)).size());
  ASSERT_EQ(result["benchmarks"].size(), built);
  for (const auto& run : result["benchmarks"]) {
    EXPECT_GT(run["max_bytes_used"].get<double>(), payload) << run.dump();
    EXPECT_GT(run["net_heap_growth"].get<double>(), 0) << run.dump();
  }
}

}  // namespace
}  // namespace wb::test
