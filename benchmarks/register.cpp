#include "benchmarks/register.hpp"

#include <exception>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
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

// Google Benchmark enters a benchmark function several times: runs that size
// the iteration count, one per further repetition, the memory run. The codec
// object each benchmark warmed up is kept for the next entries (one
// benchmark's at a time, so memory stays bounded): a fresh decoder's first
// call first-touches its buffers (milliseconds on a large payload). With
// repetitions interleaved another benchmark usually ran in between: the codec
// is then made and warmed up again, but its output is checked only on the
// benchmark's first entry (Owner). `owner` identifies the registered benchmark.
template <class State>
class Kept {
 public:
  // The state kept for owner, or nullptr when another benchmark ran since.
  State* find(const void* owner) { return owner_ == owner ? state_.get() : nullptr; }
  State& keep(const void* owner, std::unique_ptr<State> state) {
    state_ = std::move(state);
    owner_ = owner;
    return *state_;
  }

 private:
  const void* owner_ = nullptr;
  std::unique_ptr<State> state_;
};

struct EncodeState {
  std::unique_ptr<Encoder> encoder;
  std::string out;  // reused, as in a server
};

struct DecodeState {
  std::unique_ptr<Decoder> decoder;
  Records out;  // decoded into again and again: its capacity is reused
};

// The one benchmark identity per registration (the address of this object),
// and what its first entry's check found: the check runs once per benchmark.
struct Owner {
  bool checked = false;
  std::string failure;                                     // why it is skipped; "" = it runs
  bool verified = false;                                   // encode: an exact decoder read it back
  std::vector<std::pair<std::string, double>> compressed;  // encode: gzip_bytes, ...
};

void run_encode(benchmark::State& state, const CodecEntry& enc, DatasetKind dataset, int rows,
                Owner& owner) {
  static Kept<EncodeState> kept;
  const Records& records = group(enc.format, dataset, rows).records();
  EncodeState* st = kept.find(&owner);
  if (!st) {
    if (!owner.failure.empty()) return skip(state, owner.failure);
    auto fresh = std::make_unique<EncodeState>();
    fresh->encoder = enc.make_encoder();
    std::string why = failure_of(enc.library, [&] { fresh->encoder->encode(records, fresh->out); });
    if (!owner.checked) {
      if (why.empty()) why = check_encoded(enc.format, records, fresh->out, owner.verified);
      if (why.empty())
        why = failure_of("compress", [&] { owner.compressed = compressed_sizes(fresh->out); });
      owner.checked = true;
      owner.failure = why;
    }
    if (!why.empty()) return skip(state, why);
    st = &kept.keep(&owner, std::move(fresh));
  }

  time_encode(state, *st->encoder, records, st->out);
  state.counters["wire_bytes"] = static_cast<double>(st->out.size());
  for (const auto& [name, bytes] : owner.compressed) state.counters[name] = bytes;
  std::vector<Counter> extra;  // the encoder's own figures (wcfjson: infoset_bytes)
  st->encoder->report_counters(extra);
  for (const Counter& c : extra) state.counters[std::string(c.name)] = c.value;
  // 0: the format has no exact decoder yet to check this payload with.
  state.counters["verified"] = owner.verified ? 1 : 0;
}

// The decoder of a decode/ or parse-only/ benchmark, warmed up by
// `check(fresh, verify)`, which also checks its output when verify is true
// (the benchmark's first entry); nullptr after a skip.
template <class Check>
DecodeState* checked_decoder(benchmark::State& state, const CodecEntry& dec, DatasetKind dataset,
                             Owner& owner, Check&& check) {
  static Kept<DecodeState> kept;
  if (DecodeState* st = kept.find(&owner)) return st;
  if (!owner.failure.empty()) {
    skip(state, owner.failure);
    return nullptr;
  }
  auto fresh = std::make_unique<DecodeState>();
  fresh->decoder = dec.make_decoder();
  fresh->out = empty_records(dataset);
  std::string why = check(*fresh, !owner.checked);
  if (!owner.checked) {
    owner.checked = true;
    owner.failure = why;
  }
  if (!why.empty()) {
    skip(state, why);
    return nullptr;
  }
  return &kept.keep(&owner, std::move(fresh));
}

void run_decode(benchmark::State& state, const CodecEntry& dec, const CodecEntry& enc,
                DatasetKind dataset, int rows, Owner& owner) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return skip(state, payload.error);
  const std::string_view input = payload.bytes;
  DecodeState* st =
      checked_decoder(state, dec, dataset, owner, [&](DecodeState& fresh, bool verify) {
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
                    DatasetKind dataset, int rows, Owner& owner) {
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return skip(state, payload.error);
  const std::string_view input = payload.bytes;
  DecodeState* st = checked_decoder(state, dec, dataset, owner, [&](DecodeState& fresh, bool) {
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
              [=, owner = std::make_shared<Owner>()](benchmark::State& s) {
                run_encode(s, *enc, ds, rows, *owner);
              });
        const bool all_sources = every_pairing || rows == info.field_rows;
        for (const CodecEntry* dec : decoders)
          for (const CodecEntry* enc : encoders) {
            if (!all_sources && enc != reference) continue;
            add(prefix + "decode/" + std::string(dec->library) +
                    "/from:" + std::string(enc->library),
                [=, owner = std::make_shared<Owner>()](benchmark::State& s) {
                  run_decode(s, *dec, *enc, ds, rows, *owner);
                });
          }
        if (reference) {
          for (const CodecEntry* dec : decoders)
            add(prefix + "parse-only/" + std::string(dec->library),
                [=, owner = std::make_shared<Owner>()](benchmark::State& s) {
                  run_parse_only(s, *dec, *reference, ds, rows, *owner);
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
