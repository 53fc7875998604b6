// Runs code in forked children with resource limits, so that a decoder that
// crashes, hangs or eats memory ends one child instead of the calling
// process; and watches canary files for opens. The hostile test runs its
// cases through it (docs/hostile-input.md), and so does `wirebench
// conformance`, one parse per child (docs/conformance.md). It depends on no
// other part of the project.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

namespace wb {

// The CPU limit of a case, seconds. The slowest case that passes the hostile
// test, Mini-XML on a 50 MB string, took up to 6.1 s of CPU in the test's
// child, in a suite run beside two busy loops (its text buffer grows 1 KB at a
// time, so its time depends on where realloc finds room: docs/findings.md).
// A slow window of the host makes CPU time up to 1.9 times longer, 11.6 s:
// the limit is 3.4 times that.
inline constexpr int kCpuSeconds = 40;
// Wall seconds per second of CPU limit: a busy case then reaches its wall
// limit before its CPU limit only when it gets less than a fifth of a core
// (a core shared with four other busy processes).
inline constexpr double kWallPerCpuSecond = 5;

struct Limits {
  // RLIMIT_CPU, re-armed before each case: SIGXCPU when a case has used this
  // many seconds of CPU. This is the limit that judges a case that works: its
  // CPU time does not grow when other processes share the cores, as its wall
  // time does.
  int cpu_seconds = kCpuSeconds;
  // RLIMIT_AS; 0 = none. Not set under ASan, whose shadow memory reserves
  // terabytes of address space up front.
  std::size_t address_space = std::size_t{2} << 30;
  // Per case: the parent SIGKILLs the child after this much wall time. Only a
  // backstop for a case that hangs without using CPU (a blocked read): it is
  // kWallPerCpuSecond times the CPU limit, so that a case still within its CPU
  // limit is not cut short because other processes took most of the cores.
  double wall_seconds = kWallPerCpuSecond * kCpuSeconds;
  // unshare(CLONE_NEWNET) in the child: a network namespace with only a
  // loopback device that is down, so every connect() fails at once.
  bool isolate_network = true;
};

// The limits for this build (under ASan: no address-space limit).
Limits default_limits();
// limits with cpu_seconds set and wall_seconds the backstop for it.
Limits with_cpu_limit(Limits limits, int cpu_seconds);
// Whether this build runs under AddressSanitizer (the sanitize/debug presets):
// ASan owns the address space and runs code several times slower.
bool under_asan();
// Whether this process may create a network namespace (root with
// CAP_SYS_ADMIN); probed once in a child.
bool network_isolation_available();

struct ChildResult {
  // The code of a case that threw.
  static constexpr int kThrew = 3;
  // exited: the case returned (code 0) or threw (code kThrew), or the child
  // exited by itself (its exit status); signalled: the child was killed by a
  // signal (code); timed_out: the parent killed it after wall_seconds.
  enum class End { exited, signalled, timed_out } end = End::exited;
  int code = 0;
  std::string message;  // what the case returned, or what() (at most 4 KB)
  double seconds = 0;   // wall time of the case
  // CPU time (user + system) of the case: measured by the child around the
  // case, or, for a case that ended its child, the child's total from wait4()
  // less what its earlier cases used.
  double cpu_seconds = 0;
  // Set when the case ended a child that had run earlier cases and then, run
  // again alone in a new child, did not end it the same way: which cases ran
  // before it and how the lone run ended.
  std::string earlier_cases;
  std::string describe() const;  // "exit 0", "killed by signal 11 (Segmentation fault)", ...
};

// Runs body(0), ..., body(count - 1), each in a forked child, in order. A
// child runs case after case until one ends it (a signal, a hang, an exit);
// the next case starts a new child (a fork per case would be most of the
// hostile test's time under ASan). The limits hold per case. on_result(i, r)
// runs in the parent after case i returns and before case i + 1 starts, so
// what the parent sees then (a canary file opened) belongs to case i. A case
// that ends a child which had run earlier cases is run again alone in a new
// child; the lone run's result is the case's, unless it came through, then it
// is the shared child's end with earlier_cases set (the earlier cases left
// state that this one tripped on). An exception escaping body is the case's
// result (code kThrew, what()); no destructors or atexit handlers run in a
// child, and stdio is flushed before each fork, so no buffered output is
// written twice.
void run_cases_in_children(const Limits& limits, std::size_t count,
                           const std::function<std::string(std::size_t)>& body,
                           const std::function<void(std::size_t, const ChildResult&)>& on_result);

// One case alone, in a child of its own.
ChildResult run_in_child(const Limits& limits, const std::function<std::string()>& body);

// inotify on a set of files: opened() tells whether any of them was opened or
// read since the previous call, by any process (run_cases_in_children runs
// one case at a time, so an event belongs to the case that just ran).
class OpenWatch {
 public:
  OpenWatch();
  ~OpenWatch();
  OpenWatch(const OpenWatch&) = delete;
  OpenWatch& operator=(const OpenWatch&) = delete;
  void add(const std::filesystem::path& file);
  bool opened();

 private:
  int fd_ = -1;
};

}  // namespace wb
