// `sizes`: payload bytes of every format x dataset x default size.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/choose.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "codecs/compress/compressor.hpp"

namespace wb::cli {
namespace {

std::string help() {
  std::string names;
  for (const CompressorEntry& c : compressors()) names += "  " + std::string(c.name);
  return R"txt(usage: wirebench sizes [--seed N] [--markdown]

Encodes every dataset at each of its default sizes in every format (with the
format's default encoder: "reference" when it has one, else its first) and
prints one row per payload with the columns
  format  dataset  rows  bytes  bytes/row)txt" +
         names + R"txt(
as a plain text table aligned with spaces (a header line, then the rows;
bytes/row with one decimal). After bytes/row, one column per compressor the
benchmarks use (codecs/compress/compressors.def): the payload's bytes
compressed with it, at the benchmarks' setting. Formats without an encoder
are left out, with a note on stderr.

  --seed N     generator seed (default 42, as everywhere in wirebench)
  --markdown   print a Markdown table instead (numbers right-aligned)
)txt";
}

using Row = std::vector<std::string>;

// Text columns left-aligned, numbers (every column after the second) right.
std::string format_table(const std::vector<Row>& rows, bool markdown) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const Row& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  auto is_number = [](std::size_t column) { return column >= 2; };
  std::string out;
  auto cell = [&](const std::string& text, std::size_t c) {
    const std::string pad(width[c] - text.size(), ' ');
    out += is_number(c) ? pad + text : text + pad;
  };
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      out += markdown ? (c ? " | " : "| ") : (c ? "  " : "");
      cell(rows[r][c], c);
    }
    if (markdown) out += " |";
    while (out.back() == ' ') out.pop_back();
    out += '\n';
    if (markdown && r == 0) {
      for (std::size_t c = 0; c < width.size(); ++c) {
        out += c ? " | " : "| ";
        const std::size_t dashes = std::max<std::size_t>(width[c], 4);
        out += is_number(c) ? std::string(dashes - 1, '-') + ':' : std::string(dashes, '-');
      }
      out += " |\n";
    }
  }
  return out;
}

std::string per_row(std::size_t bytes, int rows) {
  if (rows == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / rows);
  return buf;
}

}  // namespace

int run_sizes(Args args) {
  const ParsedArgs a = parse_args(args, {{"seed", true}, {"markdown", false}});
  if (a.help) {
    write_stdout(help());
    return kExitOk;
  }
  if (!a.positionals.empty())
    throw UsageError("unexpected argument '" + std::string(a.positionals.front()) + "'");
  const uint64_t seed = a.has("seed") ? parse_seed("seed", *a.value("seed")) : kDefaultSeed;

  // Generated once per dataset and size, then encoded in every format.
  struct Input {
    const DatasetInfo* dataset;
    int rows;
    Records records;
  };
  std::vector<Input> inputs;
  for (const DatasetInfo& d : kDatasets)
    for (int rows : d.sizes) inputs.push_back({&d, rows, generate(d.kind, rows, seed)});

  std::vector<Row> table = {{"format", "dataset", "rows", "bytes", "bytes/row"}};
  std::vector<std::unique_ptr<Compressor>> packers;
  for (const CompressorEntry& c : compressors()) {
    table.front().emplace_back(c.name);
    packers.push_back(c.make());
  }
  std::string payload;
  std::string packed;
  for (std::string_view format : formats()) {
    const CodecEntry* codec = default_codec(format, Role::encode);
    if (!codec) {
      print_error("sizes", "note: format '" + std::string(format) + "' has no encoder, left out");
      continue;
    }
    auto encoder = codec->make_encoder();
    for (const Input& in : inputs) {
      encoder->encode(in.records, payload);
      Row& row = table.emplace_back(Row{std::string(format), std::string(in.dataset->name),
                                        std::to_string(in.rows), std::to_string(payload.size()),
                                        per_row(payload.size(), in.rows)});
      for (const auto& packer : packers) {
        packer->compress(payload, packed);
        row.push_back(std::to_string(packed.size()));
      }
    }
  }
  write_stdout(format_table(table, a.has("markdown")));
  return kExitOk;
}

}  // namespace wb::cli
