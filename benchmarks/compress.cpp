// Compression of payloads with every compressor of codecs/compress/: the
// compress and decompress benchmarks of a payload, and the compressed sizes
// that encode benchmarks report as counters. Nothing here names a codec.
#include <exception>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/compress/compressor.hpp"

namespace wb::bench {
namespace {

// Compresses payload and checks the round trip: empty if it holds, else why.
std::string round_trip(Compressor& c, std::string_view name, std::string_view payload,
                       std::string& packed) {
  return failure_of(name, [&]() -> std::string {
    c.compress(payload, packed);
    std::string back;
    c.decompress(packed, back);
    if (back != payload) return std::string(name) + ": decompress(compress(x)) != x";
    return {};
  });
}

struct CompressState {
  std::unique_ptr<Compressor> compressor;
  std::string packed, out;
};

// Times one compressor over raw, a payload of `rows` rows.
void run(benchmark::State& state, std::string_view raw, std::size_t rows,
         const CompressorEntry& entry, bool decompress, Check& check) {
  // The round trip is checked once, on the benchmark's first entry; it also
  // warms both directions up.
  CompressState* st = prepared<CompressState>(state, check, [&](CompressState& fresh, bool) {
    fresh.compressor = entry.make();
    return round_trip(*fresh.compressor, entry.name, raw, fresh.packed);
  });
  if (!st) return;

  if (decompress)
    timed_loop(state, [&] {
      st->compressor->decompress(st->packed, st->out);
      benchmark::DoNotOptimize(st->out.data());
      benchmark::ClobberMemory();
    });
  else
    timed_loop(state, [&] {
      st->compressor->compress(raw, st->out);
      benchmark::DoNotOptimize(st->out.data());
      benchmark::ClobberMemory();
    });
  // Bytes are the uncompressed payload's on both sides: MB/s of payload.
  set_throughput(state, raw.size(), rows);
  state.counters["wire_bytes"] = static_cast<double>(raw.size());
  state.counters["compressed_bytes"] = static_cast<double>(st->packed.size());
}

void run(benchmark::State& state, const CodecEntry& enc, const CompressorEntry& entry,
         DatasetKind dataset, int rows, bool decompress, Check& check) {
  Group& g = group(enc.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return state.SkipWithError(payload.error.c_str());
  run(state, payload.bytes, row_count(g.records()), entry, decompress, check);
}

}  // namespace

void register_compress_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                                  DatasetKind dataset, int rows) {
  for (const CompressorEntry& c : compressors())
    for (const bool decompress : {false, true})
      register_in_band(
          prefix + (decompress ? "decompress/" : "compress/") + std::string(c.name),
          [enc = &encoder, c = &c, dataset, rows, decompress, check = std::make_shared<Check>()](
              benchmark::State& s) { run(s, *enc, *c, dataset, rows, decompress, *check); });
}

void register_compress_benchmarks(const std::string& prefix, std::string_view payload,
                                  std::size_t rows) {
  for (const CompressorEntry& c : compressors())
    for (const bool decompress : {false, true})
      register_in_band(prefix + (decompress ? "decompress/" : "compress/") + std::string(c.name),
                       [payload, rows, c = &c, decompress, check = std::make_shared<Check>()](
                           benchmark::State& s) { run(s, payload, rows, *c, decompress, *check); });
}

std::vector<std::pair<std::string, double>> compressed_sizes(std::string_view payload) {
  std::vector<std::pair<std::string, double>> sizes;
  std::string packed;
  for (const CompressorEntry& c : compressors()) {
    c.make()->compress(payload, packed);
    sizes.emplace_back(std::string(c.name) + "_bytes", static_cast<double>(packed.size()));
  }
  return sizes;
}

}  // namespace wb::bench
