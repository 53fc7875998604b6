// `encode`: one generated payload to stdout.
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

Exit status: 0 on success, 1 if encoding or writing fails, 2 on a bad request.
)txt";
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

  const Records records = generate(dataset.kind, rows, seed);
  std::string payload;
  codec.make_encoder()->encode(records, payload);
  write_stdout(payload);
  return kExitOk;
}

}  // namespace wb::cli
