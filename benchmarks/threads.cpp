// Concurrent clients: the same decode/encode on 1, 2 and 4 threads at once,
// each thread with its own parser or encoder (made inside the benchmark
// function, which Google Benchmark runs once per thread). Times are wall
// clock (UseRealTime): contention that makes a thread wait (allocator locks,
// shared state) must show, and CPU time would hide a thread that sleeps.
// bytes_per_second is then the aggregate over the threads; per-thread
// throughput and scaling efficiency are computed by the report.
// Run unpinned in an invocation of its own (--wirebench_threads); on a
// 2-vCPU machine 4 threads oversubscribe the CPUs on purpose.
#include <memory>
#include <mutex>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/counters.hpp"
#include "benchmarks/measure.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {
namespace {

// One mid-size payload per format bounds the run time.
constexpr DatasetKind kDataset = DatasetKind::airport;
constexpr int kRows = 1010;

// The input all threads of one benchmark share read-only, made and checked
// by whichever thread arrives first (the payload cache is not thread-safe).
template <class Input>
struct Shared {
  std::mutex mutex;
  std::unique_ptr<const Input> input;
};

template <class Input, class Make>
const Input& shared_input(Shared<Input>& shared, Make&& make) {
  std::lock_guard lock(shared.mutex);
  if (!shared.input) shared.input = std::make_unique<const Input>(make());
  return *shared.input;
}

void run_decode(benchmark::State& state, const CodecEntry& dec, Shared<DecodeInput>& shared) {
  const DecodeInput& in =
      shared_input(shared, [&] { return checked_decode_input(dec, kDataset, kRows); });
  if (!in.error.empty()) return state.SkipWithError(in.error.c_str());
  auto decoder = dec.make_decoder();
  Records out = empty_records(kDataset);
  decoder->decode(in.bytes, out);  // checked above; this warms this thread's parser
  time_decode(state, *decoder, in.bytes, out, row_count(in.records));
}

void run_encode(benchmark::State& state, const CodecEntry& enc, Shared<EncodeInput>& shared) {
  const EncodeInput& in =
      shared_input(shared, [&] { return checked_encode_input(enc, kDataset, kRows); });
  if (!in.error.empty()) return state.SkipWithError(in.error.c_str());
  auto encoder = enc.make_encoder();
  std::string out;
  encoder->encode(in.records, out);
  time_encode(state, *encoder, in.records, out);
}

void configure(benchmark::internal::Benchmark* b) {
  b->Threads(1)->Threads(2)->Threads(4)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_thread_benchmarks() {
  const DatasetInfo& info = dataset_info(kDataset);
  for (std::string_view format : formats()) {
    if (!defined_for(info, format)) continue;
    const std::string prefix =
        std::string(format) + "/" + std::string(info.name) + "/" + std::to_string(kRows) + "/";
    const CodecEntry* ref = reference_encoder(format);
    for (const CodecEntry* dec : codecs_of(format, Role::decode)) {
      if (!ref) break;
      configure(benchmark::RegisterBenchmark(
          (prefix + "decode/" + std::string(dec->library) + "/from:" + std::string(ref->library))
              .c_str(),
          [dec, shared = std::make_shared<Shared<DecodeInput>>()](benchmark::State& s) {
            run_decode(s, *dec, *shared);
          }));
    }
    for (const CodecEntry* enc : codecs_of(format, Role::encode))
      configure(benchmark::RegisterBenchmark(
          (prefix + "encode/" + std::string(enc->library)).c_str(),
          [enc, shared = std::make_shared<Shared<EncodeInput>>()](benchmark::State& s) {
            run_encode(s, *enc, *shared);
          }));
  }
}

}  // namespace wb::bench
