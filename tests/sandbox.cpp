#include "tests/sandbox.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace wb::test {
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

void write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n <= 0) return;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

[[noreturn]] void child(const Limits& limits, const std::function<std::string()>& body, int out) {
  const rlim_t cpu = static_cast<rlim_t>(limits.cpu_seconds);
  const rlimit cpu_limit{cpu, cpu + 1};
  ::setrlimit(RLIMIT_CPU, &cpu_limit);
  if (limits.address_space > 0) {
    const rlimit as{limits.address_space, limits.address_space};
    ::setrlimit(RLIMIT_AS, &as);
  }
  if (limits.isolate_network && ::unshare(CLONE_NEWNET) != 0) {
    write_all(out, std::string("unshare(CLONE_NEWNET) failed: ") + std::strerror(errno));
    ::_exit(4);
  }
  int status = 0;
  std::string message;
  try {
    message = body();
  } catch (const std::exception& e) {
    message = e.what();
    status = 3;
  } catch (...) {
    message = "a non-std exception";
    status = 3;
  }
  if (message.size() > kMaxMessage) message.resize(kMaxMessage);
  write_all(out, message);
  ::_exit(status);
}

}  // namespace

bool under_asan() {
  return kAsan;
}

Limits default_limits() {
  Limits l;
  if (kAsan) {
    // ASan reserves terabytes of shadow memory, and instrumented code (with
    // the debug preset's fuzzer coverage hooks) runs 3-10x slower: the time
    // limits still catch a hang, a few times later.
    l.address_space = 0;
    l.cpu_seconds *= 3;
    l.wall_seconds *= 3;
  }
  l.isolate_network = network_isolation_available();
  return l;
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

std::string ChildResult::describe() const {
  switch (end) {
    case End::exited:
      return "exit " + std::to_string(code);
    case End::signalled:
      return "killed by signal " + std::to_string(code) + " (" + ::strsignal(code) + ")" +
             (code == SIGXCPU || code == SIGKILL ? " - CPU limit or out of memory" : "");
    case End::timed_out:
      return "still running after " + std::to_string(seconds) + " s, killed";
  }
  return "?";
}

ChildResult run_in_child(const Limits& limits, const std::function<std::string()>& body) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(pipe_fds[0]);
    child(limits, body, pipe_fds[1]);
  }
  ::close(pipe_fds[1]);
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);

  ChildResult r;
  auto drain = [&] {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(pipe_fds[0], buf, sizeof buf)) > 0)
      if (r.message.size() < kMaxMessage) r.message.append(buf, static_cast<std::size_t>(n));
  };
  const auto deadline = start + std::chrono::duration<double>(limits.wall_seconds);
  int status = 0;
  // Poll rather than block: the parent must be able to give up on a hang.
  // The delay grows so quick children cost little and slow ones few wakeups.
  auto delay = std::chrono::microseconds(50);
  for (;;) {
    drain();
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.end = ChildResult::End::timed_out;
      break;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::microseconds(20000));
  }
  drain();
  ::close(pipe_fds[0]);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.end != ChildResult::End::timed_out) {
    if (WIFSIGNALED(status)) {
      r.end = ChildResult::End::signalled;
      r.code = WTERMSIG(status);
    } else {
      r.code = WEXITSTATUS(status);
    }
  }
  return r;
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

}  // namespace wb::test
