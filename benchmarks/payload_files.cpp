#include "benchmarks/payload_files.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/as_formats.hpp"
#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/roster.hpp"
#include "benchmarks/sha256.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"
#include "codecs/payload_kind.hpp"
#include "codecs/registry.hpp"

namespace wb::bench {
namespace {

// A loaded file: the bytes every benchmark of its case reads, for the process.
struct LoadedPayload {
  std::string prefix;  // "{format}/file:{name}/{bytes}/"
  std::string format;  // whose decoders parse it: json, atom, or the feed's format
  bool feed = false;
  PageAlignedBytes bytes;
  std::size_t rows = 1;  // a document; a feed's entity rows, once a decoder read them
};

struct DecodeState {
  std::unique_ptr<Decoder> decoder;
  Records out = empty_records(DatasetKind::entity);
};

// A file's name in benchmark names: its stem, with no '/' or space (tools
// split names on '/'), made unique within the run.
std::string case_name(const std::string& path, std::set<std::string>& taken) {
  std::string stem = std::filesystem::path(path).stem().string();
  for (char& c : stem)
    if (c == '/' || c == ' ' || c == '\t') c = '_';
  if (stem.empty()) stem = "payload";
  std::string name = stem;
  for (int n = 2; !taken.insert(name).second; ++n) name = stem + "-" + std::to_string(n);
  return name;
}

std::string read_file(const std::string& path, std::string& why) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    why = path + ": cannot read: " + ec.message();
    return {};
  }
  if (size > kMaxPayloadBytes) {
    why = path + ": " + sniff_payload({}, size).why;
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) why = path + ": cannot read";
  return bytes;
}

void run_parse_only(benchmark::State& state, const CodecEntry& dec, const LoadedPayload& p,
                    Check& check) {
  const std::string_view input = p.bytes;
  DecodeState* st = prepared<DecodeState>(state, check, [&](DecodeState& fresh, bool) {
    fresh.decoder = dec.make_decoder();
    return utf8_message(failure_of(dec.library, [&] { fresh.decoder->parse_only(input); }));
  });
  if (!st) return;
  timed_loop(state, [&] {
    benchmark::DoNotOptimize(st->decoder->parse_only(input));
    benchmark::ClobberMemory();
  });
  set_throughput(state, input.size(), p.rows);
  state.counters["exact"] = dec.exact ? 1 : 0;
}

// A feed decoded into entity rows. There are no reference records to check
// against: the verdict step (wirebench_cli verdict) compares the decoders'
// rows with one another.
void run_decode(benchmark::State& state, const CodecEntry& dec, LoadedPayload& p, Check& check) {
  const std::string_view input = p.bytes;
  DecodeState* st = prepared<DecodeState>(state, check, [&](DecodeState& fresh, bool) {
    fresh.decoder = dec.make_decoder();
    return utf8_message(failure_of(dec.library, [&] { fresh.decoder->decode(input, fresh.out); }));
  });
  if (!st) return;
  p.rows = std::max<std::size_t>(1, row_count(st->out));
  time_decode(state, *st->decoder, input, st->out, p.rows);
  state.counters["exact"] = dec.exact ? 1 : 0;
}

void run_byte_scan(benchmark::State& state, const LoadedPayload& p) {
  const std::string_view in = p.bytes;
  timed_loop(state, [&] {
    std::size_t quotes = count_byte(in, '"');
    benchmark::DoNotOptimize(quotes);
  });
  set_throughput(state, in.size(), p.rows);
}

void add_context(const std::string& name, const PayloadSpec& spec, const LoadedPayload& p) {
  const std::string key = "payload.file:" + name + ".";
  benchmark::AddCustomContext(key + "path", spec.path);
  benchmark::AddCustomContext(key + "bytes", std::to_string(p.bytes.size()));
  benchmark::AddCustomContext(key + "sha256", sha256_hex(p.bytes));
  benchmark::AddCustomContext(key + "kind", spec.kind);
  benchmark::AddCustomContext(key + "case", p.prefix.substr(0, p.prefix.size() - 1));
}

}  // namespace

bool parse_payload_spec(std::string_view text, PayloadSpec& spec, std::string& why) {
  if (!split_kind_path(text, spec.kind, spec.path)) {
    why = "want KIND:PATH, got '" + std::string(text) + "'";
    return false;
  }
  if (!decoders_format(spec.kind).empty()) return true;
  why = "unknown payload kind '" + spec.kind + "' (json, xml, or odata:FORMAT of an OData feed)";
  return false;
}

std::string register_payload_benchmarks(const std::vector<PayloadSpec>& specs,
                                        const std::set<std::string>& crashed) {
  // Every benchmark of a file reads its one copy; a deque keeps each in place.
  static std::deque<LoadedPayload> loaded;
  std::set<std::string> names;
  std::set<std::size_t> probe_sizes;
  for (const PayloadSpec& spec : specs) {
    std::string why;
    const std::string bytes = read_file(spec.path, why);
    if (!why.empty()) return why;
    if (spec.as_formats && !is_feed(spec.kind))
      return spec.path + ": --as-formats re-encodes an OData feed's rows; this file is " +
             spec.kind;
    const std::string name = case_name(spec.path, names);
    LoadedPayload& p = loaded.emplace_back();
    p.format = decoders_format(spec.kind);
    p.feed = is_feed(spec.kind);
    p.bytes = PageAlignedBytes(bytes);
    const std::string shown = spec.kind == "xml" ? "xml" : p.format;
    p.prefix = shown + "/file:" + name + "/" + std::to_string(bytes.size()) + "/";
    add_context(name, spec, p);
    for (const CodecEntry* dec : codecs_of(p.format, Role::decode)) {
      const std::string library(dec->library);
      // A parser that crashed on the file in the verdict's sandbox is never
      // run here: its crash would end the whole run.
      const bool crashes = crashed.contains(library + ":" + spec.path);
      const auto add = [&](const std::string& op, Body body) {
        if (crashes)
          body = [](benchmark::State& s) {
            s.SkipWithError("crashed in the verdict's sandbox: not run");
          };
        register_in_band(p.prefix + op, std::move(body));
      };
      if (p.feed)
        add("decode/" + library + "/from:file",
            [dec, &p, check = std::make_shared<Check>()](benchmark::State& s) {
              run_decode(s, *dec, p, *check);
            });
      add("parse-only/" + library,
          [dec, &p, check = std::make_shared<Check>()](benchmark::State& s) {
            run_parse_only(s, *dec, p, *check);
          });
    }
    register_compress_benchmarks(p.prefix, p.bytes, 1);
    // The unit's probe. Two files of one size share a name: the second's
    // probe says which file it scans.
    const std::string unit = "file:" + name + "/" + std::to_string(bytes.size());
    std::string scan = "reference/byte-scan/" + std::to_string(bytes.size());
    if (!probe_sizes.insert(bytes.size()).second) scan += "/file:" + name;
    register_for_rows(static_cast<int>(bytes.size()), scan, unit,
                      [&p](benchmark::State& s) { run_byte_scan(s, p); });
    set_unit_probe(unit, scan);
    if (spec.as_formats) register_as_formats(unit, p.format, p.bytes);
  }
  return {};
}

}  // namespace wb::bench
