// Scaling with size: one Google Benchmark family per codec over the message
// scaling sizes (10 ... 10,000), so Complexity(oN) fits time = coefficient *
// rows across them; input from the reference writer only. The 1,000 and
// 10,000 points exist only here: the default run times message/10 and /100.
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/counters.hpp"
#include "benchmarks/measure.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {
namespace {

constexpr DatasetKind kDataset = DatasetKind::message;

void run_decode_scaling(benchmark::State& state, const CodecEntry& dec) {
  const int rows = static_cast<int>(state.range(0));
  const DecodeInput in = checked_decode_input(dec, kDataset, rows);
  if (!in.error.empty()) return state.SkipWithError(in.error.c_str());
  auto decoder = dec.make_decoder();
  Records out = empty_records(kDataset);
  decoder->decode(in.bytes, out);  // warm, like decode/
  time_decode(state, *decoder, in.bytes, out, row_count(in.records));
  state.SetComplexityN(rows);
}

void run_encode_scaling(benchmark::State& state, const CodecEntry& enc) {
  const int rows = static_cast<int>(state.range(0));
  const EncodeInput in = checked_encode_input(enc, kDataset, rows);
  if (!in.error.empty()) return state.SkipWithError(in.error.c_str());
  auto encoder = enc.make_encoder();
  std::string out;
  encoder->encode(in.records, out);
  time_encode(state, *encoder, in.records, out);
  state.SetComplexityN(rows);
}

template <class F>
void add_family(const std::string& name, F&& body) {
  auto* b = register_in_band(name, std::forward<F>(body));
  if (!b) return;
  for (int rows : kMessageScalingSizes) b->Arg(rows);
  b->Complexity(benchmark::oN);
}

}  // namespace

void register_scaling_benchmarks() {
  const DatasetInfo& info = dataset_info(kDataset);
  for (std::string_view format : formats()) {
    if (!defined_for(info, format)) continue;
    const std::string prefix = std::string(format) + "/" + std::string(info.name) + "/scaling/";
    for (const CodecEntry* dec : codecs_of(format, Role::decode))
      add_family(prefix + "decode/" + std::string(dec->library),
                 [dec](benchmark::State& s) { run_decode_scaling(s, *dec); });
    for (const CodecEntry* enc : codecs_of(format, Role::encode))
      add_family(prefix + "encode/" + std::string(enc->library),
                 [enc](benchmark::State& s) { run_encode_scaling(s, *enc); });
  }
}

}  // namespace wb::bench
