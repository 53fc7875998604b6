// access/{library} and access-unverified/{library}: the zero-copy formats'
// in-place read of every field (codecs/codec.hpp, Accessor), with every
// accessor of the format from the registry, on the reference payload. Set
// beside decode/ (the same verification, then a copy into records) it shows
// what materializing costs; access-unverified shows what the verifier costs.
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/common/access_fold.hpp"

namespace wb::bench {
namespace {

// Empty if the accessor reads the records' every value from the payload,
// and its unverified read folds the same as its verified one.
std::string check(Accessor& accessor, std::string_view library, std::string_view payload,
                  const Records& records) {
  return failure_of(library, [&]() -> std::string {
    const DatasetKind kind = dataset_of(records);
    if (accessor.content_digest(payload, kind) != content_digest(records))
      return std::string(library) + ": the fields read in place differ from the records";
    if (accessor.access(payload, kind, false) != accessor.access(payload, kind, true))
      return std::string(library) + ": the unverified read differs from the verified one";
    return {};
  });
}

void run(benchmark::State& state, const AccessorEntry& entry, const CodecEntry& enc,
         DatasetKind dataset, int rows, bool verify, Check& once) {
  Group& g = group(enc.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return state.SkipWithError(payload.error.c_str());
  // Checked on the benchmark's first entry, which also warms the accessor up.
  auto* accessor = prepared<std::unique_ptr<Accessor>>(
      state, once, [&](std::unique_ptr<Accessor>& fresh, bool first) {
        fresh = entry.make();
        return first ? check(*fresh, entry.library, payload.bytes, g.records())
                     : failure_of(entry.library,
                                  [&] { fresh->access(payload.bytes, dataset, verify); });
      });
  if (!accessor) return;

  timed_loop(state, [&] {
    std::uint64_t fold = (*accessor)->access(payload.bytes, dataset, verify);
    benchmark::DoNotOptimize(fold);
    benchmark::ClobberMemory();
  });
  set_throughput(state, payload.bytes.size(), row_count(g.records()));
}

}  // namespace

void register_access_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                                DatasetKind dataset, int rows) {
  for (const AccessorEntry* a : accessors_of(encoder.format))
    for (bool verify : {true, false})
      register_in_band(
          prefix + (verify ? "access/" : "access-unverified/") + std::string(a->library),
          [a, enc = &encoder, dataset, rows, verify, once = std::make_shared<Check>()](
              benchmark::State& s) { run(s, *a, *enc, dataset, rows, verify, *once); });
}

}  // namespace wb::bench
