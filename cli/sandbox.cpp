#include "cli/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace wb {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

constexpr std::size_t kMaxMessage = 4096;
// A case's report: status (0 returned, ChildResult::kThrew threw, 4 the child
// could not set up), length (4 bytes), the case's CPU time and the child's
// CPU time so far (8 bytes each, microseconds), all in host order; message.
constexpr std::size_t kLengthAt = 1, kCaseCpuAt = 5, kChildCpuAt = 13, kHeader = 21;
constexpr char kSetupFailed = 4;

long long micros(const timeval& t) {
  return t.tv_sec * 1'000'000LL + t.tv_usec;
}
long long cpu_micros(const rusage& used) {
  return micros(used.ru_utime) + micros(used.ru_stime);
}
long long own_cpu_micros() {
  rusage used{};
  ::getrusage(RUSAGE_SELF, &used);
  return cpu_micros(used);
}

bool send_all(int fd, std::string_view s) {
  while (!s.empty()) {
    // MSG_NOSIGNAL: a child that died leaves the parent an error, not SIGPIPE.
    const ssize_t n = ::send(fd, s.data(), s.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool read_exact(int fd, void* data, std::size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void send_report(int fd, char status, std::string message, long long case_cpu,
                 long long child_cpu) {
  if (message.size() > kMaxMessage) message.resize(kMaxMessage);
  const auto length = static_cast<std::uint32_t>(message.size());
  std::string frame(kHeader, '\0');
  frame[0] = status;
  std::memcpy(frame.data() + kLengthAt, &length, sizeof length);
  std::memcpy(frame.data() + kCaseCpuAt, &case_cpu, sizeof case_cpu);
  std::memcpy(frame.data() + kChildCpuAt, &child_cpu, sizeof child_cpu);
  send_all(fd, frame + message);
}

// RLIMIT_CPU counts the whole process, so each case gets its limit on top of
// what the child has used so far (the hard limit stays: only root may raise it).
void arm_cpu_limit(int seconds) {
  rlimit limit{};
  ::getrlimit(RLIMIT_CPU, &limit);
  const long long used_seconds = own_cpu_micros() / 1'000'000 + 1;
  limit.rlim_cur = static_cast<rlim_t>(used_seconds + seconds);
  if (limit.rlim_max != RLIM_INFINITY) limit.rlim_cur = std::min(limit.rlim_cur, limit.rlim_max);
  ::setrlimit(RLIMIT_CPU, &limit);
}

// The child: the limits once, then each case the parent names, until the
// parent closes the socket.
[[noreturn]] void child_loop(const Limits& limits,
                             const std::function<std::string(std::size_t)>& body, int sock) {
  if (limits.address_space > 0) {
    const rlimit as{limits.address_space, limits.address_space};
    ::setrlimit(RLIMIT_AS, &as);
  }
  std::string setup_error;
  if (limits.isolate_network && ::unshare(CLONE_NEWNET) != 0)
    setup_error = std::string("unshare(CLONE_NEWNET) failed: ") + std::strerror(errno);
  std::uint64_t index = 0;
  while (read_exact(sock, &index, sizeof index)) {
    if (!setup_error.empty()) {
      send_report(sock, kSetupFailed, setup_error, 0, own_cpu_micros());
      ::_exit(kSetupFailed);
    }
    arm_cpu_limit(limits.cpu_seconds);
    const long long cpu_before = own_cpu_micros();
    char status = 0;
    constexpr char kThrew = ChildResult::kThrew;
    std::string message;
    try {
      message = body(static_cast<std::size_t>(index));
    } catch (const std::exception& e) {
      message = e.what();
      status = kThrew;
    } catch (...) {
      message = "a non-std exception";
      status = kThrew;
    }
    const long long cpu_after = own_cpu_micros();
    send_report(sock, status, std::move(message), cpu_after - cpu_before, cpu_after);
  }
  ::_exit(0);
}

// A forked child that runs cases on request, and the parent's end of it.
class Child {
 public:
  Child(const Limits& limits, const std::function<std::string(std::size_t)>& body)
      : limits_(limits) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    // The child starts with a copy of the parent's stdio buffers: flushed
    // before the fork, a case that calls exit() does not write them again.
    std::fflush(nullptr);
    pid_ = ::fork();
    if (pid_ < 0) {
      const int error = errno;
      ::close(fds[0]);
      ::close(fds[1]);
      throw std::runtime_error(std::string("fork: ") + std::strerror(error));
    }
    if (pid_ == 0) {
      ::close(fds[0]);
      child_loop(limits, body, fds[1]);
    }
    ::close(fds[1]);
    sock_ = fds[0];
  }
  ~Child() {
    ::close(sock_);  // an idle child reads end-of-file and exits
    if (alive_) wait_for(nullptr);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool alive() const { return alive_; }
  std::size_t cases_run() const { return cases_run_; }

  ChildResult run(std::size_t index) {
    ++cases_run_;
    ChildResult r;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(limits_.wall_seconds));
    const std::uint64_t request = index;
    std::string got;
    bool reported = send_all(sock_, std::string_view(reinterpret_cast<const char*>(&request),
                                                     sizeof request)) &&
                    receive(deadline, got, r);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (reported) {
      r.code = static_cast<unsigned char>(got[0]);
      r.message = got.substr(kHeader);
      long long case_cpu = 0;
      std::memcpy(&case_cpu, got.data() + kCaseCpuAt, sizeof case_cpu);
      std::memcpy(&child_cpu_, got.data() + kChildCpuAt, sizeof child_cpu_);
      r.cpu_seconds = static_cast<double>(case_cpu) / 1e6;
      if (r.code == kSetupFailed) reap(r);
    } else if (r.end != ChildResult::End::timed_out) {
      reap(r);
    }
    return r;
  }

 private:
  // Reads one report into got; false when the child ended or ran out of time
  // (then killed and reaped, r.end timed_out).
  bool receive(std::chrono::steady_clock::time_point deadline, std::string& got, ChildResult& r) {
    char buf[4096];
    for (;;) {
      if (got.size() >= kHeader) {
        std::uint32_t length = 0;
        std::memcpy(&length, got.data() + kLengthAt, sizeof length);
        if (got.size() >= kHeader + length) return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{sock_, POLLIN, 0};
      const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count()) + 1) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {
        ::kill(pid_, SIGKILL);
        reap(r);
        r.end = ChildResult::End::timed_out;
        return false;
      }
      const ssize_t n = ::read(sock_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;  // end-of-file: the child is gone
      got.append(buf, static_cast<std::size_t>(n));
    }
  }
  // Waits for the child's end; r gets how it ended and the CPU it used since
  // its last report (the case that ended it).
  void reap(ChildResult& r) {
    int status = 0;
    rusage used{};
    wait_for(&status, &used);
    alive_ = false;
    r.cpu_seconds = static_cast<double>(std::max(0LL, cpu_micros(used) - child_cpu_)) / 1e6;
    if (WIFSIGNALED(status)) {
      r.end = ChildResult::End::signalled;
      r.code = WTERMSIG(status);
    } else {
      r.end = ChildResult::End::exited;
      r.code = WEXITSTATUS(status);
    }
  }

  void wait_for(int* status, rusage* used = nullptr) {
    while (::wait4(pid_, status, 0, used) < 0 && errno == EINTR) {
    }
  }

  Limits limits_;
  pid_t pid_ = -1;
  int sock_ = -1;
  bool alive_ = true;
  std::size_t cases_run_ = 0;
  long long child_cpu_ = 0;  // the child's CPU time at its last report, microseconds
};

}  // namespace

bool under_asan() {
  return kAsan;
}

Limits default_limits() {
  Limits l;
  // ASan reserves terabytes of shadow memory. Its time limits are Release's:
  // instrumented code runs 3-10x slower, but the hostile test leaves the
  // 50 MB strings out under ASan, and its slowest case there (Mini-XML on
  // deep elements in a comment) took 1.0 s of CPU beside two busy loops.
  if (kAsan) l.address_space = 0;
  l.isolate_network = network_isolation_available();
  return l;
}

Limits with_cpu_limit(Limits limits, int cpu_seconds) {
  limits.cpu_seconds = cpu_seconds;
  limits.wall_seconds = kWallPerCpuSecond * cpu_seconds;
  return limits;
}

bool network_isolation_available() {
  static const bool available = [] {
    Limits probe;
    probe.address_space = 0;
    probe.isolate_network = true;
    const ChildResult r = run_in_child(probe, [] { return std::string(); });
    return r.end == ChildResult::End::exited && r.code == 0;
  }();
  return available;
}

namespace {
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds);
  return text;
}
}  // namespace

std::string ChildResult::describe() const {
  std::string out;
  switch (end) {
    case End::exited:
      out = "exit " + std::to_string(code);
      break;
    case End::signalled:
      out = "killed by signal " + std::to_string(code) + " (" + ::strsignal(code) + ") after " +
            seconds_text(cpu_seconds) + " s of CPU" +
            (code == SIGXCPU || code == SIGKILL ? " - CPU limit or out of memory" : "");
      break;
    case End::timed_out:
      // The CPU it used tells a hang (next to none) from a case that the
      // machine's other processes kept from the cores.
      out = "still running after " + seconds_text(seconds) + " s, killed; it used " +
            seconds_text(cpu_seconds) + " s of CPU";
      break;
  }
  return earlier_cases.empty() ? out : out + " [" + earlier_cases + "]";
}

void run_cases_in_children(const Limits& limits, std::size_t count,
                           const std::function<std::string(std::size_t)>& body,
                           const std::function<void(std::size_t, const ChildResult&)>& on_result) {
  std::optional<Child> child;
  std::size_t first = 0;  // the first case of the current child
  for (std::size_t i = 0; i < count; ++i) {
    if (!child || !child->alive()) child.emplace(limits, body), first = i;
    ChildResult r = child->run(i);
    if (!child->alive() && child->cases_run() > 1) {
      child.reset();
      Child lone(limits, body);
      ChildResult alone = lone.run(i);
      if (!lone.alive()) {
        r = std::move(alone);
      } else {
        r.earlier_cases = "after cases " + std::to_string(first) + "-" + std::to_string(i - 1) +
                          " in the same child; alone: " + alone.describe();
        if (!alone.message.empty()) r.earlier_cases += ": " + alone.message.substr(0, 200);
      }
    }
    on_result(i, r);
  }
}

ChildResult run_in_child(const Limits& limits, const std::function<std::string()>& body) {
  ChildResult result;
  run_cases_in_children(
      limits, 1, [&](std::size_t) { return body(); },
      [&](std::size_t, const ChildResult& r) { result = r; });
  return result;
}

OpenWatch::OpenWatch() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (fd_ < 0) throw std::runtime_error(std::string("inotify_init1: ") + std::strerror(errno));
}

OpenWatch::~OpenWatch() {
  ::close(fd_);
}

void OpenWatch::add(const std::filesystem::path& file) {
  if (::inotify_add_watch(fd_, file.c_str(), IN_OPEN | IN_ACCESS) < 0)
    throw std::runtime_error("inotify_add_watch " + file.string() + ": " + std::strerror(errno));
}

bool OpenWatch::opened() {
  bool any = false;
  alignas(inotify_event) char buf[4096];
  while (::read(fd_, buf, sizeof buf) > 0) any = true;
  return any;
}

}  // namespace wb
