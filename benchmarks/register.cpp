#include "benchmarks/register.hpp"

#include <exception>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/counters.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/registry.hpp"

namespace wb::bench {
namespace {

void skip(benchmark::State& state, const std::string& why) {
  state.SkipWithError(why.c_str());
}

// The round-trip check of one encode benchmark. Google Benchmark calls a
// benchmark several times (to size it, then once per repetition); the payload
// is the same every time, so it is decoded back only on the first call.
struct EncodeCheck {
  bool done = false;
  bool checked = false;
  std::string why;
  std::vector<std::pair<std::string, double>> compressed;  // gzip_bytes, ...
};

void run_encode(benchmark::State& state, const CodecEntry& enc, DatasetKind dataset, int rows,
                EncodeCheck& check) {
  const Records& records = group(enc.format, dataset, rows).records();
  auto encoder = enc.make_encoder();
  std::string out;
  if (auto why = failure_of(enc.library, [&] { encoder->encode(records, out); }); !why.empty())
    return skip(state, why);
  if (!check.done) {
    check.why = check_encoded(enc.format, records, out, check.checked);
    if (check.why.empty())
      check.why = failure_of("compress", [&] { check.compressed = compressed_sizes(out); });
    check.done = true;
  }
  if (!check.why.empty()) return skip(state, check.why);

  time_encode(state, *encoder, records, out);
  state.counters["wire_bytes"] = static_cast<double>(out.size());
  for (const auto& [name, bytes] : check.compressed) state.counters[name] = bytes;
  std::vector<Counter> extra;  // the encoder's own figures (wcfjson: infoset_bytes)
  encoder->report_counters(extra);
  for (const Counter& c : extra) state.counters[std::string(c.name)] = c.value;
  // 0: the format has no exact decoder yet to check this payload with.
  state.counters["verified"] = check.checked ? 1 : 0;
}

void run_decode(benchmark::State& state, const CodecEntry& dec, const CodecEntry& enc,
                DatasetKind dataset, int rows) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return skip(state, payload.error);
  const std::string_view input = payload.bytes;
  auto decoder = dec.make_decoder();
  Records out = empty_records(dataset);
  if (auto why = failure_of(dec.library, [&] { decoder->decode(input, out); }); !why.empty())
    return skip(state, why);
  const double tolerance = dec.exact ? 0 : kInexactTolerance;
  if (auto why = diff_records(g.records(), out, tolerance); !why.empty())
    return skip(state, std::string(dec.library) + ": " + why);

  time_decode(state, *decoder, input, out, row_count(g.records()));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

void run_parse_only(benchmark::State& state, const CodecEntry& dec, const CodecEntry& enc,
                    DatasetKind dataset, int rows) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return skip(state, payload.error);
  const std::string_view input = payload.bytes;
  auto decoder = dec.make_decoder();
  if (auto why = failure_of(dec.library, [&] { decoder->parse_only(input); }); !why.empty())
    return skip(state, why);

  FaultCounter faults;
  for (auto _ : state) {
    decoder->parse_only(input);
    benchmark::ClobberMemory();
  }
  faults.report(state);
  set_throughput(state, input.size(), row_count(g.records()));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

template <class F>
void add(const std::string& name, F&& body) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<F>(body))->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_codec_benchmarks() {
  for (std::string_view format : formats()) {
    const auto encoders = codecs_of(format, Role::encode);
    const auto decoders = codecs_of(format, Role::decode);
    const CodecEntry* reference = reference_encoder(format);
    for (const DatasetInfo& info : kDatasets) {
      for (int rows : info.sizes) {
        const DatasetKind ds = info.kind;
        const std::string prefix =
            std::string(format) + "/" + std::string(info.name) + "/" + std::to_string(rows) + "/";
        for (const CodecEntry* enc : encoders)
          add(prefix + "encode/" + std::string(enc->library),
              [=, check = std::make_shared<EncodeCheck>()](benchmark::State& s) {
                run_encode(s, *enc, ds, rows, *check);
              });
        for (const CodecEntry* dec : decoders)
          for (const CodecEntry* enc : encoders)
            add(prefix + "decode/" + std::string(dec->library) +
                    "/from:" + std::string(enc->library),
                [=](benchmark::State& s) { run_decode(s, *dec, *enc, ds, rows); });
        if (reference) {
          for (const CodecEntry* dec : decoders)
            add(prefix + "parse-only/" + std::string(dec->library),
                [=](benchmark::State& s) { run_parse_only(s, *dec, *reference, ds, rows); });
          register_compress_benchmarks(prefix, *reference, ds, rows);
          register_route_benchmarks(prefix, *reference, ds, rows);
        }
      }
    }
  }
}

}  // namespace wb::bench
