// `encode`: one generated payload to stdout.
#include <cstdio>
#include <string>

#include "cli/args.hpp"
#include "cli/choose.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"

namespace wb::cli {
namespace {

std::string help() {
  return R"txt(usage: wirebench encode --format F --dataset D [--rows N] [--seed N] [--library L]

Generates N rows of dataset D (deterministic for a seed), encodes them as
format F and writes the payload bytes to stdout unchanged (no newline added).

  --format F    a format of `wirebench list`
  --dataset D   )txt" +
         dataset_names() + R"txt(
  --rows N      number of rows (default: the dataset's first default size:
                )txt" +
         default_row_counts() + R"txt()
  --seed N      generator seed (default )txt" +
         std::to_string(kDefaultSeed) + R"txt()
  --library L   the encoder (default: "reference" when the format has one,
                else its first encoder in `wirebench list`)

A request for a payload over 1 GiB (estimated from its first 1,000 rows) is
refused: encode holds the whole payload in memory.

Exit status: 0 on success, 1 if encoding or writing fails, 2 on a bad request.
)txt";
}

// The largest payload encode writes: it holds the records and the payload
// (and a tree encoder its tree) in memory at once, so 10,000,000 science rows
// as Atom (about 10 GB) ended in std::bad_alloc.
constexpr double kMaxPayloadBytes = 1024.0 * 1024 * 1024;
constexpr int kSampleRows = 1000;

// UsageError when rows of dataset would make a payload above kMaxPayloadBytes,
// estimated from the first kSampleRows rows (the generators' rows are alike).
void check_payload_size(const CodecEntry& codec, const DatasetInfo& dataset, int rows,
                        uint64_t seed) {
  if (rows <= kSampleRows) return;
  std::string sample;
  codec.make_encoder()->encode(generate(dataset.kind, kSampleRows, seed), sample);
  const double per_row = static_cast<double>(sample.size()) / kSampleRows;
  const double estimate = per_row * rows;
  if (estimate <= kMaxPayloadBytes) return;
  char what[256];
  std::snprintf(what, sizeof what,
                "--rows %d: the %s %s payload would be about %.1f GiB (%.0f B a row, from "
                "%d rows), over the 1 GiB encode writes; give at most %d rows",
                rows, std::string(codec.format).c_str(), std::string(dataset.name).c_str(),
                estimate / kMaxPayloadBytes, per_row, kSampleRows,
                static_cast<int>(kMaxPayloadBytes / per_row));
  throw UsageError(what);
}

}  // namespace

int run_encode(Args args) {
  const ParsedArgs a = parse_args(
      args,
      {{"format", true}, {"dataset", true}, {"rows", true}, {"seed", true}, {"library", true}});
  if (a.help) {
    write_stdout(help());
    return kExitOk;
  }
  if (!a.positionals.empty())
    throw UsageError("unexpected argument '" + std::string(a.positionals.front()) + "'");
  const std::string_view format = choose_format(a.required("format"));
  const DatasetInfo& dataset = choose_dataset(a.required("dataset"));
  const CodecEntry& codec = choose_codec(format, Role::encode, a.value("library"));
  if (!a.has("rows") && dataset.sizes.empty())
    throw UsageError("dataset " + std::string(dataset.name) + " has no default size: give --rows");
  const int rows = a.has("rows") ? parse_row_count("rows", *a.value("rows")) : dataset.sizes[0];
  const uint64_t seed = a.has("seed") ? parse_seed("seed", *a.value("seed")) : kDefaultSeed;

  check_payload_size(codec, dataset, rows, seed);
  const Records records = generate(dataset.kind, rows, seed);
  std::string payload;
  codec.make_encoder()->encode(records, payload);
  write_stdout(payload);
  return kExitOk;
}

}  // namespace wb::cli
