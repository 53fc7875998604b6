// The facts a result file needs to be read later: what was built how, with
// which libraries, on which data, pinned where, with which heap settings, and
// what each codec does (its registry labels, which the report shows beside
// its rows).
#include <string>

#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "benchmarks/machine.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "build_info.hpp"
#include "codecs/compress/compressor.hpp"
#include "codecs/registry.hpp"

namespace wb::bench {

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
  // simdjson's DOM parser picks its kernel at run time inside the shared
  // library; On-Demand is compiled into our code, so its kernel is the one
  // our flags select (every translation unit has the same flags).
  benchmark::AddCustomContext("simdjson_implementation",
                              std::string(simdjson::get_active_implementation()->name()));
  // The macro, not simdjson::builtin_implementation(): that function lives in
  // the shared library and names the kernel Debian's build of it compiled.
  benchmark::AddCustomContext("simdjson_ondemand_implementation",
                              SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION));
  add_machine_context();
  benchmark::AddCustomContext("dataset_seed", std::to_string(seed()));
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
