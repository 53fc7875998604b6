#pragma once

// Network namespaces owned by this process: creation, removal on every exit
// path, removal of those left behind by a process that died, and running code
// inside one.

#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

namespace wire {

// Empty when this process can build a testbed (root or CAP_NET_ADMIN +
// CAP_SYS_ADMIN, /dev/net/tun, iproute2), otherwise one line saying why not.
std::string missing_privileges();

// Runs iproute2's `ip` with args and returns its stdout; throws
// std::runtime_error with its stderr when it fails or runs over 10 s.
std::string run_ip(const std::vector<std::string>& args);

// The prefix of every namespace name: "wb-<pid>-", the pid being the owner's.
std::string namespace_prefix(int pid);

// A network namespace made with `ip netns add` (so `ip netns list` and
// `ip -n NAME` see it) and removed with `ip netns del` when destroyed. Names
// are registered so that remove_owned_namespaces() can delete them from a
// signal-handling thread while the owners are still alive.
class Namespace {
 public:
  // Creates "wb-<pid>-<seq>-<role>".
  explicit Namespace(std::string_view role);
  ~Namespace();
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

// Deletes every "wb-<pid>-*" namespace whose owner pid no longer exists.
// Returns the names deleted.
std::vector<std::string> remove_stale_namespaces();

// Deletes every namespace this process still owns and refuses to create more:
// the teardown of the SIGINT/SIGTERM path, which then exits.
void remove_owned_namespaces() noexcept;

// The names of the namespaces that `ip netns list` shows.
std::vector<std::string> list_namespaces();

// Moves the calling thread into namespace name (setns changes the network
// namespace of the calling thread only).
void enter_namespace(const std::string& name);

// Runs fn on a helper thread that has entered namespace name and returns its
// result (or rethrows its exception). Sockets and TUN devices keep the
// namespace they were created in, so their fds work from any thread after.
template <class F>
auto run_in(const std::string& name, F fn) -> std::invoke_result_t<F> {
  using R = std::invoke_result_t<F>;
  std::exception_ptr error;
  if constexpr (std::is_void_v<R>) {
    std::thread([&] {
      try {
        enter_namespace(name);
        fn();
      } catch (...) {
        error = std::current_exception();
      }
    }).join();
    if (error) std::rethrow_exception(error);
  } else {
    R result{};
    std::thread([&] {
      try {
        enter_namespace(name);
        result = fn();
      } catch (...) {
        error = std::current_exception();
      }
    }).join();
    if (error) std::rethrow_exception(error);
    return result;
  }
}

// Reads /proc/sys/<key with dots as slashes> in the calling thread's namespace
// (trailing newline removed); throws when it cannot.
std::string read_sysctl(const std::string& key);
// Writes it; returns 0 or the errno of the failed write.
int write_sysctl(const std::string& key, const std::string& value);

}  // namespace wire
