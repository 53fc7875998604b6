// decode-new-parser: what one call costs a process that makes its parser per call
// (a CLI tool, a serverless function) beside the warm server's decode/.
// Measured: the registry factory (parser objects, their buffers, Xerces'
// parser with its grammar pool and scanner) plus the decode, with warm CPU
// caches. Not measured: process start and library-wide initialisation, which
// happen once per process before any benchmark (XMLPlatformUtils::Initialize
// for Xerces, simdjson's implementation choice, libxml2's xmlInitParser);
// repeating them per iteration is not possible in one process (Xerces
// documents Initialize/Terminate as once-per-process in practice).
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/measure.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {
namespace {

// One payload per format keeps the run short: the parser-creation cost is
// fixed, so a small payload shows its share best.
constexpr DatasetKind kDataset = DatasetKind::airport;
constexpr int kRows = 101;

struct NewParserState {
  DecodeInput in;
  // The output records live outside the loop as in decode/, so the ratio to
  // the warm decode is the parser's creation alone.
  Records out = empty_records(kDataset);
};

void run_new_parser(benchmark::State& state, const CodecEntry& dec, Check& once) {
  // The input is checked by a decode once; later entries reuse it.
  auto* st = prepared<NewParserState>(state, once, [&](NewParserState& fresh, bool) {
    fresh.in = checked_decode_input(dec, kDataset, kRows);
    return fresh.in.error;
  });
  if (!st) return;
  timed_loop(state, [&] {
    auto decoder = dec.make_decoder();
    decoder->decode(st->in.bytes, st->out);
    benchmark::DoNotOptimize(st->out);
    benchmark::ClobberMemory();
  });
  set_throughput(state, st->in.bytes.size(), row_count(st->in.records));
  state.counters["exact"] = dec.exact ? 1 : 0;
}

}  // namespace

void register_new_parser_benchmarks() {
  const DatasetInfo& info = dataset_info(kDataset);
  for (std::string_view format : formats()) {
    if (!defined_for(info, format)) continue;
    for (const CodecEntry* dec : codecs_of(format, Role::decode)) {
      const std::string name = std::string(format) + "/" + std::string(info.name) + "/" +
                               std::to_string(kRows) + "/decode-new-parser/" +
                               std::string(dec->library);
      register_in_band(name, [dec, once = std::make_shared<Check>()](benchmark::State& s) {
        run_new_parser(s, *dec, *once);
      });
    }
  }
}

}  // namespace wb::bench
