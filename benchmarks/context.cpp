// The facts a result file needs to be read later: what was built how, with
// which libraries, on which data, pinned where, with which heap settings, and
// what each codec does (its registry labels, which the report shows beside
// its rows).
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "build_info.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/registry.hpp"

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

void add_run_context() {
  for (const auto& [library, version] : build::kLibraries)
    benchmark::AddCustomContext(std::string("library.") + library, version);
  for (const LibrarySetting& s : library_settings())
    benchmark::AddCustomContext(s.context_key, s.value);
  // A build without some libraries (cmake's WB_WITH_<LIBRARY>=OFF) names them
  // and the registry lines they took out; a build with all has neither key.
  if (*build::kLeftOut) {
    benchmark::AddCustomContext("left_out", build::kLeftOut);
    std::string lines;
    for (const std::string& line : left_out_codecs()) lines += (lines.empty() ? "" : ", ") + line;
    for (std::string_view c : left_out_compressors())
      lines += (lines.empty() ? "compress." : ", compress.") + std::string(c);
    benchmark::AddCustomContext("left_out_codecs", lines);
  }
  benchmark::AddCustomContext("compiler", build::kCompiler);
  benchmark::AddCustomContext("cxx_flags", build::kCxxFlags);
  benchmark::AddCustomContext("wirebench_build_type", build::kBuildType);
  // simdjson's DOM parser picks its kernel at run time inside the shared
  // library; On-Demand is compiled into our code, so its kernel is the one
  // our flags select (every translation unit has the same flags).
  benchmark::AddCustomContext("simdjson_implementation",
                              std::string(simdjson::get_active_implementation()->name()));
  // The macro, not simdjson::builtin_implementation(): that function lives in
  // the shared library and names the kernel Debian's build of it compiled.
  benchmark::AddCustomContext("simdjson_ondemand_implementation",
                              SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION));
  benchmark::AddCustomContext("git_commit", env_or("WIREBENCH_COMMIT", "unknown"));
  benchmark::AddCustomContext("dataset_seed", std::to_string(seed()));
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("kernel", kernel());
  benchmark::AddCustomContext("cpu_pinned", cpu_pinning());
  benchmark::AddCustomContext("glibc_tunables", env_or("GLIBC_TUNABLES", "unset"));
  for (const CodecEntry& c : codecs())
    benchmark::AddCustomContext(label_context_key(c), std::string(c.labels));
  for (const RouterEntry& r : routers())
    benchmark::AddCustomContext(label_context_key(r), std::string(r.labels));
  for (const AccessorEntry& a : accessors())
    benchmark::AddCustomContext(label_context_key(a), std::string(a.labels));
  benchmark::AddCustomContext("note",
                              "benchmark library reports itself as a debug build (Debian "
                              "package); wirebench code is Release");
}

}  // namespace wb::bench
