// `conformance`: every JSON decoder over a conformance corpus: the project's
// own (fixtures/conformance/json, tools/gen_json_corpus.py) or any folder of
// y_/n_/i_ files, such as JSONTestSuite's test_parsing.
// Each parse runs in a forked child of its own (cli/sandbox.hpp), so a parser
// that crashes or hangs on one file is recorded as "crashed" and the matrix
// still completes; docs/conformance.md describes the outcomes.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "cli/sandbox.hpp"
#include "codecs/registry.hpp"

namespace wb::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char kHelp[] =
    R"txt(usage: wirebench conformance [--corpus DIR] [--json OUT] [--library A,B]

Runs every decoder of format json (or those --library names) over every y_,
n_ and i_ .json file of a conformance corpus: the project's own, generated from RFC 8259 and Unicode's
Table 3-7 (fixtures/conformance/json), or DIR, any folder laid out the same
way (JSONTestSuite's test_parsing is). Each parse runs sandboxed in a child
process, with a decoder of its own (10 s CPU limit); a parse that ends its
child runs again alone. Per file and decoder it records:
  parse   parse_only: "accepted", "rejected" (DecodeError) or "crashed"
          (a signal, a hang, or an exception other than DecodeError)
  decode  decode() into the message dataset, for n_ files only: the binders
          must reject every one of them whatever the parser says
The expected outcome comes from the file name: y_ accept, n_ reject, i_ either.

Prints one row per decoder: y accepted/total, n rejected/total, i accepted,
crashes, and decode's n rejected/total; then every y_ file a parser rejects
and every n_ file it accepts.

  --corpus DIR  the corpus folder (default: the project's)
  --json OUT    also write the whole matrix as JSON to OUT
  --library A,B only these decoders (./wirebench list: the json decode lines)

Exit status: 0 when nothing crashed and decode() rejected every n_ file,
1 otherwise (the table and OUT are written either way), 2 on a bad request.
)txt";

enum class Outcome { accepted, rejected, crashed };

const char* name_of(Outcome o) {
  switch (o) {
    case Outcome::accepted:
      return "accepted";
    case Outcome::rejected:
      return "rejected";
    case Outcome::crashed:
      return "crashed";
  }
  return "?";
}

struct Result {
  Outcome outcome;
  std::string detail;  // for crashes: the signal, the stray exception, the exit or the hang
};

// A parser stuck in a loop is a crash, not a stalled matrix: SIGXCPU after
// 10 s of CPU, killed by the wall backstop (5x that) when blocked without
// using CPU. The corpus's files are a few KB, parsed in milliseconds, so a
// busy machine is far from either. Neither the address space nor the network
// is limited.
Limits parse_limits() {
  Limits l = with_cpu_limit(Limits{}, 10);
  l.address_space = 0;
  l.isolate_network = false;
  return l;
}

// What the child reports when the parse returned or threw DecodeError.
constexpr const char kReportAccepted[] = "accepted";
constexpr const char kReportRejected[] = "rejected";

// The outcome of one parse that ran in a sandboxed child.
Result outcome_of(const ChildResult& r) {
  const std::string earlier = r.earlier_cases.empty() ? "" : " [" + r.earlier_cases + "]";
  switch (r.end) {
    case ChildResult::End::exited:
      if (r.code == 0 && r.message == kReportAccepted) return {Outcome::accepted, ""};
      if (r.code == 0 && r.message == kReportRejected) return {Outcome::rejected, ""};
      if (r.code == ChildResult::kThrew)
        return {Outcome::crashed, "exception other than DecodeError" + earlier};
      return {Outcome::crashed, "exit status " + std::to_string(r.code) + earlier};
    case ChildResult::End::signalled: {
      const char* sig = sigabbrev_np(r.code);
      return {Outcome::crashed, std::string("signal SIG") + (sig ? sig : "?") + earlier};
    }
    case ChildResult::End::timed_out:
      return {Outcome::crashed, r.describe()};
  }
  return {Outcome::crashed, "?"};
}

struct CorpusFile {
  std::string name;
  std::string padded;  // the bytes followed by kInputPadding
};

std::vector<CorpusFile> load(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw UsageError("not a directory: '" + dir.string() + "'");
  std::vector<CorpusFile> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const bool is_case = name.starts_with("y_") || name.starts_with("n_") || name.starts_with("i_");
    if (!entry.is_regular_file() || !is_case || !name.ends_with(".json")) continue;
    files.push_back({name, padded_copy(read_input(entry.path().string()))});
  }
  std::sort(files.begin(), files.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  if (files.empty()) throw UsageError("no y_, n_ or i_ .json files in '" + dir.string() + "'");
  return files;
}

struct Tally {
  int y = 0, y_accepted = 0, n = 0, n_rejected = 0, i = 0, i_accepted = 0, crashed = 0;
  int n_decode_rejected = 0;
  std::vector<std::string> y_rejected_files, n_accepted_files, n_decoded_files, crashed_files;
};

struct Cell {
  Result parse;
  std::optional<Result> decode;  // n_ files only
};

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      (out += '\\') += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

std::string expected_of(std::string_view name) {
  if (name.starts_with("y_")) return "accept";
  if (name.starts_with("n_")) return "reject";
  return "either";
}

std::string matrix_json(const fs::path& dir, std::string_view label,
                        const std::vector<const CodecEntry*>& decoders,
                        const std::vector<CorpusFile>& files,
                        const std::vector<std::vector<Cell>>& cells,
                        const std::vector<Tally>& tallies) {
  std::string out = "{\n  \"corpus\": ";
  append_json_string(out, dir.string());
  out += ",\n  \"corpus_label\": ";
  append_json_string(out, label);
  out += ",\n  \"decoders\": [\n";
  for (std::size_t d = 0; d < decoders.size(); ++d) {
    const Tally& t = tallies[d];
    out += "    {\"library\": ";
    append_json_string(out, decoders[d]->library);
    out += ", \"y_total\": " + std::to_string(t.y) +
           ", \"y_accepted\": " + std::to_string(t.y_accepted) +
           ", \"n_total\": " + std::to_string(t.n) +
           ", \"n_rejected\": " + std::to_string(t.n_rejected) +
           ", \"i_total\": " + std::to_string(t.i) +
           ", \"i_accepted\": " + std::to_string(t.i_accepted) +
           ", \"crashed\": " + std::to_string(t.crashed) +
           ", \"decode_n_rejected\": " + std::to_string(t.n_decode_rejected) + "}";
    out += d + 1 < decoders.size() ? ",\n" : "\n";
  }
  out += "  ],\n  \"files\": [\n";
  for (std::size_t f = 0; f < files.size(); ++f) {
    out += "    {\"name\": ";
    append_json_string(out, files[f].name);
    out += ", \"expected\": \"" + expected_of(files[f].name) + "\", \"parse\": {";
    std::string decode, details;
    for (std::size_t d = 0; d < decoders.size(); ++d) {
      const Cell& c = cells[d][f];
      const std::string key = "\"" + std::string(decoders[d]->library) + "\": ";
      out += (d ? ", " : "") + key + "\"" + name_of(c.parse.outcome) + "\"";
      if (c.decode)
        decode += (decode.empty() ? "" : ", ") + key + "\"" + name_of(c.decode->outcome) + "\"";
      for (const Result* r : {&c.parse, c.decode ? &*c.decode : nullptr}) {
        if (!r || r->detail.empty()) continue;
        details += (details.empty() ? "" : ", ") + key;
        append_json_string(details, r->detail);
      }
    }
    out += "}";
    if (!decode.empty()) out += ", \"decode\": {" + decode + "}";
    if (!details.empty()) out += ", \"crash_detail\": {" + details + "}";
    out += f + 1 < files.size() ? "},\n" : "}\n";
  }
  out += "  ]\n}\n";
  return out;
}

std::string ratio(int part, int whole) {
  return std::to_string(part) + "/" + std::to_string(whole);
}

std::string summary_table(const std::vector<const CodecEntry*>& decoders,
                          const std::vector<Tally>& tallies) {
  std::vector<std::vector<std::string>> rows = {
      {"decoder", "y accepted", "n rejected", "i accepted", "crashed", "decode n rejected"}};
  for (std::size_t d = 0; d < decoders.size(); ++d) {
    const Tally& t = tallies[d];
    rows.push_back({std::string(decoders[d]->library), ratio(t.y_accepted, t.y),
                    ratio(t.n_rejected, t.n), ratio(t.i_accepted, t.i), std::to_string(t.crashed),
                    ratio(t.n_decode_rejected, t.n)});
  }
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::string out;
  for (const auto& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      const std::string pad(width[c] - r[c].size(), ' ');
      out += c == 0 ? r[c] + pad : "  " + pad + r[c];
    }
    out += '\n';
  }
  for (std::size_t d = 0; d < decoders.size(); ++d) {
    const Tally& t = tallies[d];
    const std::pair<const char*, const std::vector<std::string>*> lists[] = {
        {"rejects valid", &t.y_rejected_files},
        {"accepts invalid", &t.n_accepted_files},
        {"decode() accepts invalid", &t.n_decoded_files},
        {"crashed on", &t.crashed_files}};
    for (const auto& [what, names] : lists) {
      if (names->empty()) continue;
      out += std::string(decoders[d]->library) + " " + what + ":";
      for (const auto& n : *names) out += " " + n;
      out += '\n';
    }
  }
  return out;
}

// The decoders named in a comma-separated list, in the registry's order.
std::vector<const CodecEntry*> chosen(const std::vector<const CodecEntry*>& decoders,
                                      std::string_view names) {
  std::vector<std::string_view> wanted;
  for (std::size_t start = 0; start <= names.size();) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    if (comma > start) wanted.push_back(names.substr(start, comma - start));
    start = comma + 1;
  }
  std::vector<const CodecEntry*> out;
  for (std::string_view name : wanted) {
    auto found = std::find_if(decoders.begin(), decoders.end(),
                              [&](const CodecEntry* d) { return d->library == name; });
    if (found == decoders.end())
      throw UsageError("no json decoder '" + std::string(name) +
                       "' (./wirebench list names them: FORMAT json, ROLE decode)");
  }
  for (const CodecEntry* d : decoders)
    if (std::find(wanted.begin(), wanted.end(), d->library) != wanted.end()) out.push_back(d);
  return out;
}

}  // namespace

int run_conformance(Args args) {
  const ParsedArgs a = parse_args(args, {{"corpus", true}, {"json", true}, {"library", true}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (!a.positionals.empty())
    throw UsageError("unexpected argument '" + std::string(a.positionals.front()) + "'");
  const bool own = !a.has("corpus");
  const fs::path dir = own ? fs::path(WB_CONFORMANCE_DIR) : fs::path(*a.value("corpus"));
  // What the page and REPORT.md call the corpus.
  const std::string label =
      own ? "the project's corpus (RFC 8259, Unicode Table 3-7)" : "the corpus " + dir.string();
  const std::vector<CorpusFile> files = load(dir);
  std::vector<const CodecEntry*> decoders = codecs_of("json", Role::decode);
  if (decoders.empty()) throw std::runtime_error("no json decoder in the registry");
  if (a.has("library")) decoders = chosen(decoders, *a.value("library"));

  std::vector<std::vector<Cell>> cells(decoders.size());
  std::vector<Tally> tallies(decoders.size());
  // Each file's parse, and each n_ file's decode too.
  struct Case {
    std::size_t file;
    bool decode;
  };
  std::vector<Case> cases;
  for (std::size_t f = 0; f < files.size(); ++f) {
    cases.push_back({f, false});
    if (files[f].name.starts_with("n_")) cases.push_back({f, true});
  }
  const Limits limits = parse_limits();
  for (std::size_t d = 0; d < decoders.size(); ++d) {
    // One child runs a decoder's cases one after another, each with a decoder
    // of its own; a case that ends the child (a crash, a hang) is run again
    // alone in a new one (cli/sandbox.hpp), so its outcome is its own. A fork
    // per parse cost more than the parses: most of a minute for the corpus.
    std::vector<Result> outcomes(cases.size());
    run_cases_in_children(
        limits, cases.size(),
        [&](std::size_t i) {
          const CorpusFile& f = files[cases[i].file];
          auto decoder = decoders[d]->make_decoder();
          try {
            if (cases[i].decode) {
              Records out = empty_records(DatasetKind::message);
              decoder->decode(f.padded, out);
            } else {
              decoder->parse_only(f.padded);
            }
          } catch (const DecodeError&) {
            return std::string(kReportRejected);
          }
          return std::string(kReportAccepted);
        },
        [&](std::size_t i, const ChildResult& r) { outcomes[i] = outcome_of(r); });
    Tally& t = tallies[d];
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const CorpusFile& f = files[cases[i].file];
      if (cases[i].decode) {
        Cell& cell = cells[d].back();
        cell.decode = outcomes[i];
        if (cell.decode->outcome == Outcome::rejected) {
          ++t.n_decode_rejected;
        } else {
          t.n_decoded_files.push_back(f.name + " (" + name_of(cell.decode->outcome) + ")");
          if (cell.decode->outcome == Outcome::crashed) ++t.crashed;
        }
        continue;
      }
      Cell cell{outcomes[i], std::nullopt};
      const bool accepted = cell.parse.outcome == Outcome::accepted;
      if (cell.parse.outcome == Outcome::crashed) {
        ++t.crashed;
        t.crashed_files.push_back(f.name + " (" + cell.parse.detail + ")");
      }
      if (f.name.starts_with("y_")) {
        ++t.y;
        t.y_accepted += accepted;
        if (!accepted) t.y_rejected_files.push_back(f.name);
      } else if (f.name.starts_with("n_")) {
        ++t.n;
        t.n_rejected += cell.parse.outcome == Outcome::rejected;
        if (accepted) t.n_accepted_files.push_back(f.name);
      } else {
        ++t.i;
        t.i_accepted += accepted;
      }
      cells[d].push_back(std::move(cell));
    }
  }

  write_stdout(summary_table(decoders, tallies));
  if (a.has("json")) {
    // Written beside and renamed, so an interrupted run leaves no half file.
    const std::string path(*a.value("json"));
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out << matrix_json(dir, label, decoders, files, cells, tallies);
      if (!out.flush()) throw std::runtime_error("cannot write '" + tmp + "'");
    }
    fs::rename(tmp, path);
  }
  const bool clean = std::all_of(tallies.begin(), tallies.end(), [](const Tally& t) {
    return t.crashed == 0 && t.n_decode_rejected == t.n;
  });
  return clean ? kExitOk : kExitFailure;
}

}  // namespace wb::cli
