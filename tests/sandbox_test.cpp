// The sandbox that the hostile test and `wirebench conformance` trust to
// catch crashes, hangs and runaway CPU (cli/sandbox.hpp): each way a case can
// end, that the next case starts clean, and that a failure caused by state an
// earlier case left in a shared child is reported as such.
#include "cli/sandbox.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// A wall limit short enough for the test that sleeps into it, and still some
// 50 times what a fork and a case that returns at once take on a busy 2-core
// machine (tens of ms; under ASan, three times that).
Limits quick_limits() {
  Limits l;
  l.cpu_seconds = 1;
  l.address_space = 0;
  l.wall_seconds = under_asan() ? 6 : 2;
  l.isolate_network = false;
  return l;
}

std::vector<ChildResult> run_all(const Limits& limits, std::size_t count,
                                 const std::function<std::string(std::size_t)>& body) {
  std::vector<ChildResult> out;
  run_cases_in_children(limits, count, body, [&](std::size_t i, const ChildResult& r) {
    EXPECT_EQ(i, out.size());
    out.push_back(r);
  });
  return out;
}

bool returned(const ChildResult& r, const std::string& message) {
  return r.end == ChildResult::End::exited && r.code == 0 && r.message == message &&
         r.earlier_cases.empty();
}

void burn_cpu(double seconds) {
  const std::clock_t start = std::clock();
  volatile unsigned long sink = 0;
  while (static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC < seconds) sink = sink + 1;
}

TEST(Sandbox, CasesShareAChildAwayFromTheParent) {
  const pid_t parent = ::getpid();
  const auto r = run_all(quick_limits(), 3, [&](std::size_t) {
    return ::getpid() == parent ? std::string("in the parent") : std::to_string(::getpid());
  });
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NE(r[0].message, "in the parent");
  EXPECT_TRUE(returned(r[1], r[0].message)) << r[1].describe() << " " << r[1].message;
  EXPECT_TRUE(returned(r[2], r[0].message)) << r[2].describe() << " " << r[2].message;
}

TEST(Sandbox, EachEndIsReportedAndTheNextCaseStartsAfresh) {
  const auto r = run_all(quick_limits(), 7, [](std::size_t i) -> std::string {
    switch (i) {
      case 0:
        std::this_thread::sleep_for(std::chrono::hours(1));
        break;
      case 2:
        ::raise(SIGKILL);
        break;
      case 4:
        throw std::runtime_error("thrown");
      case 5:
        ::_exit(7);
    }
    return "ok " + std::to_string(i);
  });
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0].end, ChildResult::End::timed_out) << r[0].describe();
  EXPECT_GE(r[0].seconds, quick_limits().wall_seconds);
  // A hang without CPU says so: it used next to no CPU in all that time.
  EXPECT_LT(r[0].cpu_seconds, 0.5) << r[0].describe();
  EXPECT_NE(r[0].describe().find(" s of CPU"), std::string::npos) << r[0].describe();
  EXPECT_TRUE(returned(r[1], "ok 1")) << r[1].describe();
  // Cases 2 and 5 end a child that ran a case before; alone they end it too.
  EXPECT_EQ(r[2].end, ChildResult::End::signalled) << r[2].describe();
  EXPECT_EQ(r[2].code, SIGKILL);
  EXPECT_TRUE(r[2].earlier_cases.empty()) << r[2].earlier_cases;
  EXPECT_TRUE(returned(r[3], "ok 3")) << r[3].describe();
  EXPECT_EQ(r[4].end, ChildResult::End::exited);
  EXPECT_EQ(r[4].code, 3);
  EXPECT_EQ(r[4].message, "thrown");
  EXPECT_EQ(r[5].end, ChildResult::End::exited);
  EXPECT_EQ(r[5].code, 7);
  EXPECT_TRUE(r[5].earlier_cases.empty()) << r[5].earlier_cases;
  EXPECT_TRUE(returned(r[6], "ok 6")) << r[6].describe();
}

// Seconds of CPU left before RLIMIT_CPU's soft limit.
double cpu_headroom() {
  rusage used{};
  ::getrusage(RUSAGE_SELF, &used);
  rlimit limit{};
  ::getrlimit(RLIMIT_CPU, &limit);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return static_cast<double>(limit.rlim_cur) - seconds(used.ru_utime) - seconds(used.ru_stime);
}

// The CPU limit holds per case: a runaway case is stopped by SIGXCPU long
// before its wall-clock limit (first in its child, so it is not run again
// alone), and the limit is re-armed before each case on top of what the
// child has used: the case after one that used a second still has more than
// a second left.
TEST(Sandbox, CpuLimitIsPerCase) {
  Limits limits = quick_limits();
  // Case 0 runs to SIGXCPU at 1-2 s of CPU: under 9 s of wall time beside
  // two busy loops and the other test shard, and the limit is far past that.
  limits.wall_seconds = 60;
  const auto r = run_all(limits, 3, [](std::size_t i) {
    const double headroom = cpu_headroom();
    burn_cpu(i == 0 ? 1e9 : i == 1 ? 1.0 : 0);
    return std::to_string(headroom);
  });
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].end, ChildResult::End::signalled) << r[0].describe();
  EXPECT_EQ(r[0].code, SIGXCPU);
  // The parent learns a killed case's CPU time from wait4().
  EXPECT_GE(r[0].cpu_seconds, limits.cpu_seconds) << r[0].describe();
  // Stopped by its CPU limit, before the parent's wall limit: how long that
  // took in wall time depends on who else shares the CPU.
  EXPECT_LT(r[0].seconds, limits.wall_seconds);
  for (int i = 1; i < 3; ++i) {
    ASSERT_EQ(r[i].end, ChildResult::End::exited) << i << ": " << r[i].describe();
    const double headroom = std::stod(r[i].message);
    EXPECT_GT(headroom, limits.cpu_seconds) << "case " << i;
    EXPECT_LE(headroom, limits.cpu_seconds + 1) << "case " << i;
  }
}

// Each case's CPU time is its own, not its child's so far: what the limit
// judges, and what the hostile test reports as a decoder's slowest case.
// burn_cpu counts CPU time, so the figures hold however busy the machine is.
TEST(Sandbox, EachCaseReportsItsOwnCpuTime) {
  static bool burnt = false;  // set in the child only
  Limits limits = quick_limits();
  limits.wall_seconds = 30;  // 0.9 s of CPU on a loaded machine
  const auto r = run_all(limits, 4, [](std::size_t i) {
    // Case 3 ends a child that burnt CPU before it, and alone it comes
    // through: its result is the shared child's end.
    if (i == 3 && burnt) ::raise(SIGKILL);
    burn_cpu(i == 1 ? 0.3 : i == 2 ? 0.6 : 0);
    burnt = true;
    return std::string("ok");
  });
  ASSERT_EQ(r.size(), 4u);
  EXPECT_LT(r[0].cpu_seconds, 0.2);
  EXPECT_GE(r[1].cpu_seconds, 0.3);
  EXPECT_LT(r[1].cpu_seconds, 0.5);
  EXPECT_GE(r[2].cpu_seconds, 0.6);
  EXPECT_LT(r[2].cpu_seconds, 0.8);
  // Killed in a child that had used 0.9 s: its own CPU only (wait4()'s
  // total less what the child had reported).
  EXPECT_EQ(r[3].end, ChildResult::End::signalled) << r[3].describe();
  EXPECT_FALSE(r[3].earlier_cases.empty());
  EXPECT_LT(r[3].cpu_seconds, 0.2) << r[3].describe();
}

// The wall limit is a backstop for a case that blocks: a case that works is
// judged by its CPU time, so the default wall limit leaves room for several
// busy processes per core.
TEST(Sandbox, WallLimitIsABackstopForTheCpuLimit) {
  const Limits limits = default_limits();
  EXPECT_GE(limits.wall_seconds, 4.0 * limits.cpu_seconds);
  const Limits doubled = with_cpu_limit(limits, 2 * limits.cpu_seconds);
  EXPECT_EQ(doubled.wall_seconds, 2 * limits.wall_seconds);
  EXPECT_EQ(doubled.address_space, limits.address_space);
}

// A case that fails only because of what an earlier case did in the same
// child is still a failure, and says so.
TEST(Sandbox, StateLeftByEarlierCasesIsNamed) {
  static bool poisoned = false;  // set in the child only
  const auto r = run_all(quick_limits(), 3, [](std::size_t i) {
    if (i == 1 && poisoned) ::raise(SIGKILL);
    poisoned = true;
    return std::string("ok");
  });
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(returned(r[0], "ok"));
  EXPECT_EQ(r[1].end, ChildResult::End::signalled);
  EXPECT_EQ(r[1].earlier_cases, "after cases 0-0 in the same child; alone: exit 0: ok");
  EXPECT_NE(r[1].describe().find("alone: exit 0"), std::string::npos) << r[1].describe();
  EXPECT_TRUE(returned(r[2], "ok"));
}

// on_result runs before the next case starts: what the parent does there is
// visible to the next case, so a side effect belongs to the case before it.
TEST(Sandbox, ParentSeesEachCaseBeforeTheNextStarts) {
  TempFile mark(".mark");
  std::vector<std::string> seen;
  run_cases_in_children(
      quick_limits(), 4,
      [&](std::size_t) {
        return std::filesystem::exists(mark.path()) ? read_file(mark.path()) : std::string("-");
      },
      [&](std::size_t i, const ChildResult& r) {
        seen.push_back(r.message);
        write_file(mark.path(), std::to_string(i));
      });
  EXPECT_EQ(seen, (std::vector<std::string>{"-", "0", "1", "2"}));
}

TEST(Sandbox, AddressSpaceLimitTurnsABlowUpIntoBadAlloc) {
  if (under_asan()) GTEST_SKIP() << "ASan reserves the address space itself";
  Limits limits = quick_limits();
  limits.address_space = std::size_t{1} << 30;
  const ChildResult r = run_in_child(limits, [] {
    std::string big(std::size_t{2} << 30, 'x');
    return std::to_string(big.size());
  });
  EXPECT_EQ(r.end, ChildResult::End::exited) << r.describe();
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.message, std::bad_alloc().what());
}

}  // namespace
}  // namespace wb::test
