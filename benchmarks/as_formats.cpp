#include "benchmarks/as_formats.hpp"

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/carriers/carriers.hpp"
#include "generators/datasets.hpp"

namespace wb::bench {
namespace {

// The feed's rows and, per format, the payload each encoder writes, made on
// first use (a listing run registers every name and times none).
struct FeedRows {
  std::string name;  // "file:{name}"
  std::string format;
  std::string_view bytes;
  Records rows = empty_records(DatasetKind::entity);
  std::string from;  // the decoder that read them
  std::string error;
  carry::EntitySchema schema;  // what the binary formats carry them through
};

struct EncodeState {
  std::unique_ptr<Encoder> encoder;
  std::string out;
};

struct DecodeState {
  std::unique_ptr<Decoder> decoder;
  PageAlignedBytes input;
  Records out = empty_records(DatasetKind::entity);
};

struct EncodeCheck : Check {
  std::vector<std::pair<std::string, double>> compressed;  // gzip_bytes, ...
};

// The rows every decoder of the feed's format agrees on is the verdict's
// business (wirebench_cli verdict); the rows here are the first exact
// decoder's that reads the file.
void read_rows(FeedRows& feed) {
  for (const CodecEntry* dec : codecs_of(feed.format, Role::decode)) {
    if (!dec->exact) continue;
    const std::string why =
        failure_of(dec->library, [&] { dec->make_decoder()->decode(feed.bytes, feed.rows); });
    if (why.empty()) {
      feed.from = dec->library;
      return;
    }
    if (feed.error.empty()) feed.error = why;
  }
  if (feed.error.empty()) feed.error = "no exact decoder of " + feed.format + " to read the feed";
}

// Where two entity row sets first differ: the row, the property and what.
std::string entity_diff(const Records& want, const Records& got) {
  const auto& w = std::get<std::vector<EntityRow>>(want);
  const auto& g = std::get<std::vector<EntityRow>>(got);
  if (w.size() != g.size())
    return "decoded " + std::to_string(g.size()) + " rows, expected " + std::to_string(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& wp = w[i].Properties;
    const auto& gp = g[i].Properties;
    for (std::size_t j = 0; j < wp.size(); ++j) {
      if (j >= gp.size()) return "row " + std::to_string(i) + ": no property " + wp[j].Name;
      if (wp[j] == gp[j]) continue;
      return "row " + std::to_string(i) + ": " + wp[j].Name + " " + wp[j].Type + " '" +
             wp[j].Value + "' came back as " + gp[j].Name + " " + gp[j].Type + " '" + gp[j].Value +
             "'";
    }
    if (gp.size() != wp.size()) return "row " + std::to_string(i) + ": properties added";
  }
  return {};
}

// Empty when an exact decoder of the carrier's format gives the rows back
// from payload, else why not.
std::string read_back(const Carrier& carrier, const FeedRows& feed, std::string_view payload) {
  const std::string input = padded_copy(payload);
  std::string why = "no exact decoder of " + std::string(carrier.format) + " to check it with";
  for (const CarrierCodec& dec : carrier.decoders) {
    if (!dec.exact) continue;
    Records back = empty_records(DatasetKind::entity);
    why = failure_of(dec.library, [&] {
      dec.make_decoder(feed.schema)->decode(std::string_view(input.data(), payload.size()), back);
      return entity_diff(feed.rows, back);
    });
    if (why.empty()) return {};
    why = std::string(dec.library) + ": " + why;
  }
  return why;
}

void run_encode(benchmark::State& state, const Carrier& carrier, const CarrierCodec& enc,
                FeedRows& feed, EncodeCheck& check) {
  EncodeState* st = prepared<EncodeState>(state, check, [&](EncodeState& fresh, bool verify) {
    if (!feed.error.empty()) return feed.error;
    fresh.encoder = enc.make_encoder(feed.schema);
    std::string why = failure_of(enc.library, [&] { fresh.encoder->encode(feed.rows, fresh.out); });
    if (!why.empty() || !verify) return why;
    if (why = read_back(carrier, feed, fresh.out); !why.empty()) return why;
    return failure_of("compress", [&] { check.compressed = compressed_sizes(fresh.out); });
  });
  if (!st) return;
  time_encode(state, *st->encoder, feed.rows, st->out);
  state.counters["wire_bytes"] = static_cast<double>(st->out.size());
  for (const auto& [name, bytes] : check.compressed) state.counters[name] = bytes;
  state.counters["verified"] = 1;
}

void run_decode(benchmark::State& state, const CarrierCodec& dec, const CarrierCodec& enc,
                FeedRows& feed, Check& check) {
  DecodeState* st = prepared<DecodeState>(state, check, [&](DecodeState& fresh, bool verify) {
    if (!feed.error.empty()) return feed.error;
    std::string payload;
    if (auto why = failure_of(enc.library,
                              [&] { enc.make_encoder(feed.schema)->encode(feed.rows, payload); });
        !why.empty())
      return why;
    fresh.input = PageAlignedBytes(payload);
    fresh.decoder = dec.make_decoder(feed.schema);
    if (auto why = failure_of(dec.library, [&] { fresh.decoder->decode(fresh.input, fresh.out); });
        !why.empty() || !verify)
      return why;
    if (auto why = entity_diff(feed.rows, fresh.out); !why.empty())
      return std::string(dec.library) + " reads it differently: " + why;
    return std::string();
  });
  if (!st) return;
  time_decode(state, *st->decoder, st->input, st->out, row_count(feed.rows));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

void not_carried(benchmark::State& state, const std::string& why) {
  state.SkipWithError(("not carried: " + why).c_str());
}

}  // namespace

void register_as_formats(const std::string& unit, std::string_view format, std::string_view bytes) {
  // Every benchmark of a feed reads its one set of rows; a deque keeps each in place.
  static std::deque<FeedRows> feeds;
  FeedRows& feed = feeds.emplace_back();
  feed.name = unit.substr(0, unit.find('/'));
  feed.format = std::string(format);
  feed.bytes = bytes;
  read_rows(feed);
  // The schema the binary formats need; rows that have none are refused by
  // each such carrier's why_not, with the reason.
  if (feed.error.empty())
    carry::schema_of("", std::get<std::vector<EntityRow>>(feed.rows), feed.schema);
  const std::string key = "as_formats." + feed.name + ".";
  benchmark::AddCustomContext(key + "rows", std::to_string(row_count(feed.rows)));
  benchmark::AddCustomContext(key + "rows_from", feed.error.empty() ? feed.from : feed.error);
  std::string carried, refused;
  for (const Carrier& carrier : carriers()) {
    if (carrier.format == format) continue;
    const std::string prefix = std::string(carrier.format) + "/" + unit + "/";
    const std::string why = feed.error.empty() ? carrier.why_not(feed.rows) : std::string();
    (why.empty() ? carried : refused) +=
        std::string(carrier.format) + (why.empty() ? "" : ": " + why) + "; ";
    for (const CarrierCodec& enc : carrier.encoders) {
      const std::string name = prefix + "encode/" + std::string(enc.library);
      if (!why.empty()) {
        register_in_band(name, [why](benchmark::State& s) { not_carried(s, why); });
        continue;
      }
      register_in_band(name,
                       [&carrier, &enc, &feed, check = std::make_shared<EncodeCheck>()](
                           benchmark::State& s) { run_encode(s, carrier, enc, feed, *check); });
    }
    // Decoders read the first encoder's payload, as the suite's do at most
    // sizes (from:reference); the encoders' payloads all read back the same rows.
    if (!why.empty() || carrier.encoders.empty()) continue;
    const CarrierCodec& source = carrier.encoders.front();
    for (const CarrierCodec& dec : carrier.decoders)
      register_in_band(
          prefix + "decode/" + std::string(dec.library) + "/from:" + std::string(source.library),
          [&dec, &source, &feed, check = std::make_shared<Check>()](benchmark::State& s) {
            run_decode(s, dec, source, feed, *check);
          });
  }
  benchmark::AddCustomContext(key + "carried", carried);
  benchmark::AddCustomContext(key + "not_carried", refused);
  benchmark::AddCustomContext(key + "not_carried_yet", not_carried_yet());
}

}  // namespace wb::bench
