#include "benchmarks/machine.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

#include "build_info.hpp"

namespace wb::bench {
namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The CPUs this process may run on, if that is fewer than the online CPUs
// ("1", "0,2"), else "none": what is in force, not what was asked for.
std::string cpu_pinning() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "unknown";
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (CPU_COUNT(&set) >= online) return "none";
  std::string cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus += (cpus.empty() ? "" : ",") + std::to_string(cpu);
  return cpus;
}

// The processor, from the first block of /proc/cpuinfo: "AMD EPYC (family
// 26, model 2, stepping 1)". Google Benchmark records the clock and the
// caches but not the model, and a VM may hide its caches (sysfs without
// cpu*/cache): without this, results of two machines cannot be told apart.
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::map<std::string, std::string> field;
  for (std::string line; std::getline(in, line) && !line.empty();) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const auto start = line.find_first_not_of(' ', colon + 1);
    field[key] = start == std::string::npos ? "" : line.substr(start);
  }
  const std::string& name = field["model name"];
  if (name.empty()) return "unknown";
  std::string ids;
  const std::pair<const char*, const char*> numbers[] = {
      {"cpu family", "family"}, {"model", "model"}, {"stepping", "stepping"}};
  for (const auto& [key, shown] : numbers)
    if (!field[key].empty())
      ids += (ids.empty() ? "" : ", ") + std::string(shown) + " " + field[key];
  return ids.empty() ? name : name + " (" + ids + ")";
}

std::string kernel() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

}  // namespace

void add_machine_context() {
  benchmark::AddCustomContext("compiler", build::kCompiler);
  benchmark::AddCustomContext("cxx_flags", build::kCxxFlags);
  benchmark::AddCustomContext("wirebench_build_type", build::kBuildType);
  benchmark::AddCustomContext("git_commit", env_or("WIREBENCH_COMMIT", "unknown"));
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("kernel", kernel());
  benchmark::AddCustomContext("cpu_pinned", cpu_pinning());
  benchmark::AddCustomContext("glibc_tunables", env_or("GLIBC_TUNABLES", "unset"));
}

}  // namespace wb::bench
