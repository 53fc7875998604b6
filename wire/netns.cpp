#include "wire/netns.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "wire/fd.hpp"

extern char** environ;

namespace wire {
namespace {

// Namespaces go through iproute2 (fork/exec) rather than netlink: `ip netns
// add` also makes the /run/netns bind mount that `ip netns list`, `ip -n` and
// the stale-namespace sweep rely on, and the few calls happen at setup and
// teardown only, where a millisecond per exec does not matter.
const char* ip_binary() {
  for (const char* path : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"}) {
    if (::access(path, X_OK) == 0) return path;
  }
  return nullptr;
}

constexpr char kNetnsDir[] = "/run/netns";

// The namespaces this process owns; `closing` is set once the signal path has
// removed them, after which no new one is made.
struct Registry {
  std::mutex mutex;
  std::vector<std::string> names;
  bool closing = false;
};
Registry& registry() {
  static Registry r;
  return r;
}

std::atomic<int> next_sequence{0};

bool has_capability(const std::string& cap_eff_hex, int bit) {
  unsigned long long mask = std::stoull(cap_eff_hex, nullptr, 16);
  return (mask >> bit) & 1ULL;
}

std::string sysctl_path(const std::string& key) {
  std::string path = "/proc/sys/" + key;
  for (std::size_t i = sizeof("/proc/sys/") - 1; i < path.size(); ++i) {
    if (path[i] == '.') path[i] = '/';
  }
  return path;
}

void delete_namespace(const std::string& name) {
  run_ip({"netns", "del", name});
}

// A killed owner stays a zombie until its parent reaps it, and kill(pid, 0)
// succeeds on a zombie: its /proc state 'Z' counts as dead. EPERM means the
// process exists (another user's), which counts as alive.
bool owner_alive(int pid) {
  if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::size_t paren = all.rfind(')');
  return !(paren != std::string::npos && paren + 2 < all.size() && all[paren + 2] == 'Z');
}

}  // namespace

std::string missing_privileges() {
  std::ifstream status("/proc/self/status");
  std::string line, cap_eff;
  while (std::getline(status, line)) {
    if (line.rfind("CapEff:", 0) == 0) cap_eff = line.substr(7);
  }
  constexpr int kCapNetAdmin = 12, kCapSysAdmin = 21;
  if (cap_eff.empty() || !has_capability(cap_eff, kCapNetAdmin) ||
      !has_capability(cap_eff, kCapSysAdmin)) {
    return "needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) to create network namespaces and TUN "
           "devices; run it as root";
  }
  if (::access("/dev/net/tun", R_OK | W_OK) != 0) {
    return "/dev/net/tun is missing or not accessible (a kernel with TUN support is needed)";
  }
  if (ip_binary() == nullptr) return "iproute2's ip is not installed (apt-get install iproute2)";
  return {};
}

std::string run_ip(const std::vector<std::string>& args) {
  const char* ip = ip_binary();
  if (ip == nullptr) throw std::runtime_error("iproute2's ip is not installed");
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]), err_read(err_pipe[0]), err_write(err_pipe[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The caller may block SIGINT/SIGTERM for its signal thread; ip gets the
  // default mask back.
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  std::vector<std::string> storage{"ip"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, ip, &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  std::string command = "ip";
  for (const auto& a : args) command += " " + a;
  if (rc != 0) throw std::runtime_error(command + ": spawn failed: " + std::strerror(rc));
  out_write.reset();
  err_write.reset();

  std::string out, err;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      throw std::runtime_error(command + ": no answer in 10 s");
    }
    pollfd fds[2] = {{out_open ? out_read.get() : -1, POLLIN, 0},
                     {err_open ? err_read.get() : -1, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    char buf[4096];
    if (out_open && fds[0].revents) {
      ssize_t n = ::read(out_read.get(), buf, sizeof buf);
      if (n > 0)
        out.append(buf, static_cast<std::size_t>(n));
      else
        out_open = false;
    }
    if (err_open && fds[1].revents) {
      ssize_t n = ::read(err_read.get(), buf, sizeof buf);
      if (n > 0)
        err.append(buf, static_cast<std::size_t>(n));
      else
        err_open = false;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    throw std::runtime_error(command + " failed: " + (err.empty() ? "no message" : err));
  }
  return out;
}

std::string namespace_prefix(int pid) {
  return "wb-" + std::to_string(pid) + "-";
}

Namespace::Namespace(std::string_view role)
    : name_(namespace_prefix(::getpid()) + std::to_string(next_sequence++) + "-" +
            std::string(role)) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.closing) throw std::runtime_error("shutting down: no new namespace");
  run_ip({"netns", "add", name_});
  r.names.push_back(name_);
}

Namespace::~Namespace() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto it = r.names.begin(); it != r.names.end(); ++it) {
    if (*it == name_) {
      r.names.erase(it);
      try {
        delete_namespace(name_);
      } catch (...) {
        // Left for the next run's stale sweep; a destructor must not throw.
      }
      return;
    }
  }
}

std::vector<std::string> list_namespaces() {
  std::vector<std::string> names;
  DIR* dir = ::opendir(kNetnsDir);
  if (dir == nullptr) return names;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  return names;
}

std::vector<std::string> remove_stale_namespaces() {
  std::vector<std::string> removed;
  for (const std::string& name : list_namespaces()) {
    if (name.rfind("wb-", 0) != 0) continue;
    std::size_t dash = name.find('-', 3);
    if (dash == std::string::npos || dash == 3) continue;
    std::string digits = name.substr(3, dash - 3);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    int pid = std::stoi(digits);
    if (pid == ::getpid()) continue;
    if (owner_alive(pid)) continue;
    try {
      delete_namespace(name);
      removed.push_back(name);
    } catch (...) {
      // Another run may have removed it first.
    }
  }
  return removed;
}

void remove_owned_namespaces() noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.closing = true;
  for (const auto& name : r.names) {
    try {
      delete_namespace(name);
    } catch (...) {
      // Nothing more to do on the way out; the next run's sweep retries.
    }
  }
  r.names.clear();
}

void enter_namespace(const std::string& name) {
  std::string path = std::string(kNetnsDir) + "/" + name;
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  if (::setns(fd.get(), CLONE_NEWNET) != 0) {
    throw std::runtime_error("setns " + name + ": " + std::strerror(errno));
  }
}

std::string read_sysctl(const std::string& key) {
  std::ifstream in(sysctl_path(key));
  if (!in) throw std::runtime_error("cannot read sysctl " + key);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string value = ss.str();
  while (!value.empty() && value.back() == '\n') value.pop_back();
  for (char& c : value) {
    if (c == '\t') c = ' ';
  }
  return value;
}

int write_sysctl(const std::string& key, const std::string& value) {
  Fd fd(::open(sysctl_path(key).c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return errno;
  ssize_t n = ::write(fd.get(), value.data(), value.size());
  if (n < 0) return errno;
  return n == static_cast<ssize_t>(value.size()) ? 0 : EIO;
}

}  // namespace wire
