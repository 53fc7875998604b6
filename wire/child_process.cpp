#include "wire/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "wire/link.hpp"
#include "wire/netns.hpp"

namespace wire {
namespace {

// Error and data frames: a kind byte, a 4-byte length, the body.
constexpr char kData = 'D', kError = 'E';

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw std::runtime_error(std::string("pipe write: ") + std::strerror(errno));
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Reads n bytes before deadline_ns; false at end of stream.
bool read_all(int fd, char* p, std::size_t n, std::int64_t deadline_ns) {
  while (n > 0) {
    const std::int64_t left_ms = (deadline_ns - monotonic_ns()) / 1'000'000;
    if (left_ms <= 0) throw std::runtime_error("no answer in time");
    pollfd pfd{fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(left_ms));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (ready == 0) continue;
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw std::runtime_error(std::string("pipe read: ") + std::strerror(errno));
    if (r == 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

std::pair<Fd, Fd> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  return {Fd(fds[0]), Fd(fds[1])};
}

// Closes every descriptor from 3 up but keep_a and keep_b.
void close_others(int keep_a, int keep_b) {
  const int lo = std::min(keep_a, keep_b), hi = std::max(keep_a, keep_b);
  if (lo > 3) ::close_range(3, static_cast<unsigned>(lo - 1), 0);
  if (hi > lo + 1) ::close_range(static_cast<unsigned>(lo + 1), static_cast<unsigned>(hi - 1), 0);
  ::close_range(static_cast<unsigned>(hi + 1), ~0U, 0);
}

}  // namespace

void MessagePipe::write_frame(char kind, const std::string& body) {
  char head[5];
  head[0] = kind;
  const auto n = static_cast<std::uint32_t>(body.size());
  std::memcpy(head + 1, &n, 4);
  write_all(out_.get(), head, sizeof head);
  write_all(out_.get(), body.data(), body.size());
}

void MessagePipe::send(const std::string& message) {
  write_frame(kData, message);
}

void MessagePipe::send_error(const std::string& what) {
  write_frame(kError, what);
}

std::string MessagePipe::receive(int timeout_ms) {
  const std::int64_t deadline = monotonic_ns() + std::int64_t{timeout_ms} * 1'000'000;
  char head[5];
  if (!read_all(in_.get(), head, sizeof head, deadline)) {
    throw std::runtime_error("the other end closed its pipe");
  }
  std::uint32_t n = 0;
  std::memcpy(&n, head + 1, 4);
  std::string body(n, '\0');
  if (!read_all(in_.get(), body.data(), n, deadline)) {
    throw std::runtime_error("the other end closed its pipe mid-message");
  }
  if (head[0] == kError) throw std::runtime_error(body);
  return body;
}

ChildProcess::ChildProcess(std::string name, const std::string& ns,
                           std::function<void(MessagePipe&)> body)
    : name_(std::move(name)) {
  auto [to_child_r, to_child_w] = make_pipe();
  auto [to_parent_r, to_parent_w] = make_pipe();
  const pid_t parent = ::getpid();
  std::fflush(nullptr);  // nothing buffered is written twice
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(name_ + ": fork: " + std::strerror(errno));
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    close_others(to_child_r.get(), to_parent_w.get());
    MessagePipe pipe(std::move(to_child_r), std::move(to_parent_w));
    int status = 0;
    try {
      enter_namespace(ns);
      body(pipe);
    } catch (const std::exception& e) {
      try {
        pipe.send_error(e.what());
      } catch (...) {
      }
      status = 1;
    }
    // Not exit(): the parent's static objects are the parent's.
    ::_exit(status);
  }
  pipe_ = std::make_unique<MessagePipe>(std::move(to_parent_r), std::move(to_child_w));
}

std::string ChildProcess::receive(int timeout_ms) {
  try {
    return pipe_->receive(timeout_ms);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(name_ + ": " + e.what());
  }
}

ChildProcess::~ChildProcess() {
  pipe_.reset();  // end of stream: the child ends
  for (int i = 0; i < 500; ++i) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    ::usleep(10'000);
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

}  // namespace wire
