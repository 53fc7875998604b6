// The facts a result file needs to be read later: what was built how, with
// which libraries, on which data, pinned where, with which heap settings.
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
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

}  // namespace

void add_run_context() {
  for (const auto& [library, version] : build::kLibraries)
    benchmark::AddCustomContext(std::string("library.") + library, version);
  benchmark::AddCustomContext("compiler", build::kCompiler);
  benchmark::AddCustomContext("cxx_flags", build::kCxxFlags);
  benchmark::AddCustomContext("wirebench_build_type", build::kBuildType);
  benchmark::AddCustomContext("simdjson_implementation",
                              std::string(simdjson::get_active_implementation()->name()));
  benchmark::AddCustomContext("git_commit", env_or("WIREBENCH_COMMIT", "unknown"));
  benchmark::AddCustomContext("dataset_seed", std::to_string(seed()));
  benchmark::AddCustomContext("cpu_pinned", cpu_pinning());
  benchmark::AddCustomContext("glibc_tunables", env_or("GLIBC_TUNABLES", "unset"));
  benchmark::AddCustomContext("note",
                              "benchmark library reports itself as a debug build (Debian "
                              "package); wirebench code is Release");
}

}  // namespace wb::bench
