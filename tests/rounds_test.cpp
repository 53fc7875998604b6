// The rounds of wirebench_bench (benchmarks/rounds.hpp), run as the suite
// runs them, on three competitors of one unit whose names hold characters a
// regex reads (a '+'), so that each round's exact-name filter is tested too.
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

const std::string kFilter =
    "^wcfjson/message/100/(decode/rapidjson\\+(pugixml|libxml2)/from:reference|encode/reference)$";
constexpr int kRounds = 3;

// The three competitors need RapidJSON, pugixml and libxml2 in the build.
#define SKIP_WITHOUT_COMPETITORS()                                               \
  for (const char* line :                                                        \
       {"wcfjson.decode.rapidjson+pugixml", "wcfjson.decode.rapidjson+libxml2"}) \
  SKIP_WITHOUT(line)

nlohmann::json run_rounds(const std::string& seed, RunResult* result = nullptr) {
  TempFile out(".json");
  const RunResult r =
      run({WB_BENCH_EXE, "--benchmark_min_time=0.001", "--benchmark_filter=" + kFilter,
           "--wirebench_rounds=" + std::to_string(kRounds), "--wirebench_round_seed=" + seed,
           "--wirebench_probe_every=2", "--benchmark_out=" + out.path().string()});
  if (result) *result = r;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  return nlohmann::json::parse(read_file(out.path()));
}

// The names of round `id` in the order they ran.
std::vector<std::string> sequence(const nlohmann::json& result, int id) {
  std::map<int, std::string> by_slot;
  for (const auto& b : result["benchmarks"])
    if (b["round_id"].get<double>() == id)
      by_slot[static_cast<int>(b["round_slot"].get<double>())] = b["name"];
  std::vector<std::string> out;
  for (const auto& [slot, name] : by_slot) out.push_back(name);
  return out;
}

TEST(Rounds, EachCompetitorOnceARoundBetweenProbes) {
  SKIP_WITHOUT_COMPETITORS();
  const nlohmann::json result = run_rounds("7");
  ASSERT_FALSE(result.is_null());
  EXPECT_EQ(result["context"]["run_design"], "rounds");
  EXPECT_EQ(result["context"]["rounds"], std::to_string(kRounds));
  const std::string probe = "reference/byte-scan/";
  std::map<std::string, std::vector<int>> rounds_of;
  std::map<std::string, std::set<double>> iterations_after_first;
  for (const auto& b : result["benchmarks"]) {
    ASSERT_EQ(b["run_type"], "iteration");
    const std::string name = b["name"];
    EXPECT_EQ(name.find("/iterations:"), std::string::npos) << name;
    if (b["paired_reference"].get<double>() == 1) {
      EXPECT_EQ(name.rfind(probe, 0), 0u) << name;
      continue;
    }
    const int round = static_cast<int>(b["round"].get<double>());
    EXPECT_EQ(b["repetition_index"].get<int>(), round);
    rounds_of[name].push_back(round);
    if (round > 0) iterations_after_first[name].insert(b["iterations"].get<double>());
  }
  ASSERT_EQ(rounds_of.size(), 3u);
  for (const auto& [name, rounds] : rounds_of) {
    EXPECT_EQ(rounds, (std::vector<int>{0, 1, 2})) << name;
    // Later rounds run the iterations the first one sized: one count.
    EXPECT_EQ(iterations_after_first[name].size(), 1u) << name;
  }
  for (int id = 0; id < kRounds; ++id) {
    const std::vector<std::string> order = sequence(result, id);
    // probe, two competitors, probe, one competitor, probe.
    ASSERT_EQ(order.size(), 6u);
    for (std::size_t slot : {0u, 3u, 5u}) EXPECT_EQ(order[slot].rfind(probe, 0), 0u) << slot;
    std::set<std::string> competitors{order[1], order[2], order[4]};
    EXPECT_EQ(competitors.size(), 3u);
  }
}

TEST(Rounds, TheOrderFollowsTheSeed) {
  SKIP_WITHOUT_COMPETITORS();
  const nlohmann::json first = run_rounds("11");
  const nlohmann::json again = run_rounds("11");
  ASSERT_FALSE(first.is_null());
  ASSERT_FALSE(again.is_null());
  std::set<std::vector<std::string>> orders;
  for (int id = 0; id < kRounds; ++id) {
    EXPECT_EQ(sequence(first, id), sequence(again, id)) << "round " << id;
    orders.insert(sequence(first, id));
  }
  // Six rounds of 3! orders each: one order in all six would be no shuffle (1 in 7,776).
  const nlohmann::json other = run_rounds("12");
  for (int id = 0; id < kRounds; ++id) orders.insert(sequence(other, id));
  EXPECT_GT(orders.size(), 1u);
}

TEST(Rounds, RepetitionsAreRefusedAndAListingLists) {
  SKIP_WITHOUT_COMPETITORS();
  RunResult r = run({WB_BENCH_EXE, "--benchmark_filter=" + kFilter, "--wirebench_rounds=3",
                     "--benchmark_repetitions=6"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a round is a repetition"), std::string::npos) << r.err;
  r = run({WB_BENCH_EXE, "--benchmark_filter=" + kFilter, "--wirebench_rounds=3",
           "--benchmark_list_tests=true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "wcfjson/message/100/encode/reference\n"
            "wcfjson/message/100/decode/rapidjson+pugixml/from:reference\n"
            "wcfjson/message/100/decode/rapidjson+libxml2/from:reference\n");
  r = run({WB_BENCH_EXE, "--wirebench_rounds=0"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace wb::test
