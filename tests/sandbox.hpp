// Runs a piece of the test in a forked child with resource limits, so that a
// decoder that crashes, hangs or eats memory fails one case instead of the
// whole test process; and watches canary files for opens.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace wb::test {

struct Limits {
  int cpu_seconds = 10;  // RLIMIT_CPU: SIGXCPU, then SIGKILL a second later
  // RLIMIT_AS; 0 = none. Not set under ASan, whose shadow memory reserves
  // terabytes of address space up front.
  std::size_t address_space = std::size_t{2} << 30;
  double wall_seconds = 10;  // the parent SIGKILLs the child after this
  // unshare(CLONE_NEWNET) in the child: a network namespace with only a
  // loopback device that is down, so every connect() fails at once.
  bool isolate_network = true;
};

// The limits for this build (under ASan: no address-space limit, 3x the time).
Limits default_limits();
// Whether this build runs under AddressSanitizer (the sanitize/debug presets):
// ASan owns the address space and runs code several times slower.
bool under_asan();
// Whether this process may create a network namespace (root with
// CAP_SYS_ADMIN); probed once in a child.
bool network_isolation_available();

struct ChildResult {
  enum class End { exited, signalled, timed_out } end = End::exited;
  int code = 0;                  // exit status, or the signal number
  std::string message;           // what the body returned (at most a few KB)
  double seconds = 0;            // wall time
  std::string describe() const;  // "exit 0", "killed by signal 11 (Segmentation fault)", ...
};

// Forks; the child sets the limits, runs body and writes what it returns to a
// pipe, then _exit(0) (an exception escaping body: its what(), _exit(3)). No
// destructors or atexit handlers run in the child.
ChildResult run_in_child(const Limits& limits, const std::function<std::string()>& body);

// inotify on a set of files: opened() tells whether any of them was opened or
// read since the previous call, by any process (the cases run one at a time,
// so an event belongs to the case that just ran).
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

}  // namespace wb::test
