#include "benchmarks/register.hpp"

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/counters.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/registry.hpp"

namespace wb::bench {
namespace {

struct EncodeState {
  std::unique_ptr<Encoder> encoder;
  std::string out;  // reused, as in a server
};

struct DecodeState {
  std::unique_ptr<Decoder> decoder;
  Records out;  // decoded into again and again: its capacity is reused
};

// An encode benchmark's first-entry findings, which its counters repeat on
// every entry.
struct EncodeCheck : Check {
  bool verified = false;                                   // an exact decoder read it back
  std::vector<std::pair<std::string, double>> compressed;  // gzip_bytes, ...
  double digest = 0;                                       // output_digest of the payload
};

// FNV-1a over a payload.
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// 32 bits of the hash, exact in a double counter: two encoders of one format
// with the same digest wrote the same bytes, so every call of one costs what
// the other's does on the wire (the racing rule, benchmarks/race.hpp, needs
// that to settle an encoder).
double output_digest(std::uint64_t hash) {
  return static_cast<double>((hash ^ (hash >> 32)) & 0xffffffffu);
}

// compressed_sizes of a payload, once per distinct payload: most serializers
// of a format write the same bytes, and every compressor over an 8 MB Atom
// document costs more than a second.
const std::vector<std::pair<std::string, double>>& compressed_sizes_once(std::string_view bytes,
                                                                         std::uint64_t hash) {
  static std::map<std::pair<std::uint64_t, std::size_t>,
                  std::vector<std::pair<std::string, double>>>
      done;
  auto [at, fresh] = done.try_emplace({hash, bytes.size()});
  if (fresh) at->second = compressed_sizes(bytes);
  return at->second;
}

void run_encode(benchmark::State& state, const CodecEntry& enc, DatasetKind dataset, int rows,
                EncodeCheck& check) {
  const Records& records = group(enc.format, dataset, rows).records();
  EncodeState* st = prepared<EncodeState>(state, check, [&](EncodeState& fresh, bool verify) {
    fresh.encoder = enc.make_encoder();
    std::string why = failure_of(enc.library, [&] { fresh.encoder->encode(records, fresh.out); });
    if (!why.empty() || !verify) return why;
    why = check_encoded(enc.format, records, fresh.out, check.verified);
    const std::uint64_t hash = fnv1a(fresh.out);
    if (why.empty())
      why = failure_of("compress",
                       [&] { check.compressed = compressed_sizes_once(fresh.out, hash); });
    check.digest = output_digest(hash);
    return why;
  });
  if (!st) return;

  time_encode(state, *st->encoder, records, st->out);
  state.counters["wire_bytes"] = static_cast<double>(st->out.size());
  state.counters["wire_digest"] = check.digest;
  for (const auto& [name, bytes] : check.compressed) state.counters[name] = bytes;
  std::vector<Counter> extra;  // the encoder's own figures (wcfjson: infoset_bytes)
  st->encoder->report_counters(extra);
  for (const Counter& c : extra) state.counters[std::string(c.name)] = c.value;
  // 0: the format has no exact decoder yet to check this payload with.
  state.counters["verified"] = check.verified ? 1 : 0;
}

// The decoder of a decode/ or parse-only/ benchmark, made and warmed up by
// run(fresh, verify), which also checks its output when verify is true.
template <class Run>
DecodeState* checked_decoder(benchmark::State& state, const CodecEntry& dec, DatasetKind dataset,
                             Check& check, Run&& run) {
  return prepared<DecodeState>(state, check, [&](DecodeState& fresh, bool verify) {
    fresh.decoder = dec.make_decoder();
    fresh.out = empty_records(dataset);
    return run(fresh, verify);
  });
}

void run_decode(benchmark::State& state, const CodecEntry& dec, const CodecEntry& enc,
                DatasetKind dataset, int rows, Check& check) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return state.SkipWithError(payload.error.c_str());
  const std::string_view input = payload.bytes;
  DecodeState* st =
      checked_decoder(state, dec, dataset, check, [&](DecodeState& fresh, bool verify) {
        if (auto why = failure_of(dec.library, [&] { fresh.decoder->decode(input, fresh.out); });
            !why.empty() || !verify)
          return why;
        const double tolerance = dec.exact ? 0 : kInexactTolerance;
        if (auto why = diff_records(g.records(), fresh.out, tolerance); !why.empty())
          return std::string(dec.library) + ": " + why;
        return std::string();
      });
  if (!st) return;

  time_decode(state, *st->decoder, input, st->out, row_count(g.records()));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

void run_parse_only(benchmark::State& state, const CodecEntry& dec, const CodecEntry& enc,
                    DatasetKind dataset, int rows, Check& check) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return state.SkipWithError(payload.error.c_str());
  const std::string_view input = payload.bytes;
  DecodeState* st = checked_decoder(state, dec, dataset, check, [&](DecodeState& fresh, bool) {
    return failure_of(dec.library, [&] { fresh.decoder->parse_only(input); });
  });
  if (!st) return;

  timed_loop(state, [&] {
    // The figure (Decoder::parse_only) is consumed: the parse cannot be dropped.
    benchmark::DoNotOptimize(st->decoder->parse_only(input));
    benchmark::ClobberMemory();
  });
  set_throughput(state, input.size(), row_count(g.records()));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

template <class F>
void add(const std::string& name, F&& body) {
  register_in_band(name, std::forward<F>(body));
}

}  // namespace

void register_codec_benchmarks(bool every_pairing) {
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
        const bool all_sources = every_pairing || rows == info.field_rows;
        for (const CodecEntry* dec : decoders)
          for (const CodecEntry* enc : encoders) {
            if (!all_sources && enc != reference) continue;
            add(prefix + "decode/" + std::string(dec->library) +
                    "/from:" + std::string(enc->library),
                [=, check = std::make_shared<Check>()](benchmark::State& s) {
                  run_decode(s, *dec, *enc, ds, rows, *check);
                });
          }
        if (reference) {
          for (const CodecEntry* dec : decoders)
            add(prefix + "parse-only/" + std::string(dec->library),
                [=, check = std::make_shared<Check>()](benchmark::State& s) {
                  run_parse_only(s, *dec, *reference, ds, rows, *check);
                });
          register_compress_benchmarks(prefix, *reference, ds, rows);
          register_route_benchmarks(prefix, *reference, ds, rows);
          register_access_benchmarks(prefix, *reference, ds, rows);
        }
      }
    }
  }
}

}  // namespace wb::bench
