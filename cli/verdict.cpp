// `verdict`: every parser of a user's file's kind over it, each in a
// sandboxed child (cli/sandbox.hpp), as the hostile-input matrix runs them:
// accepted or rejected, with the library's error and byte offset, or crashed.
// `./wirebench bench --payload` writes it beside the result
// (<result>-verdict.json) and the page shows it as the verdict column.
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/canonical_json.hpp"
#include "cli/commands.hpp"
#include "cli/io.hpp"
#include "cli/sandbox.hpp"
#include "codecs/payload_kind.hpp"
#include "codecs/registry.hpp"

namespace wb::cli {
namespace {

constexpr const char kHelp[] =
    R"txt(usage: wirebench verdict [--json OUT] KIND:FILE...

Runs every parser of each file's kind (KIND:FILE as `wirebench payload-kind`
prints it) over the file, each parse in a sandboxed child (40 s of CPU, 2 GiB
of address space, no network), and says per library:
  accepted   parse-only returned
  rejected   the library refused the file: its error, and the byte offset
             where it gives one
  crashed    a signal, a limit, or an exception other than the library's error
Every parser that accepts the file also writes what it parsed in the
project's canonical form (a JSON value or an XML infoset, docs/payload.md),
and the forms are compared by digest: a parser whose form differs from the
most common answer "reads it differently", with the first difference.
For an OData feed, every decoder of its format also decodes it into entity
rows (op "decode"), and the rows are compared the same way.
A library that accepts what others reject is marked "accepts what N reject".
A rejected file is not timed for that library by `bench --payload`.

  --json OUT    also write the verdicts as JSON to OUT
  --values DIR  keep each parser's canonical form, DIR/FILE.LIBRARY.txt
                (FILE: the file's name)

Exit status: 0 (a rejection or a crash is a finding, not a failure); 2 on a
bad request or an unreadable file.
)txt";

struct Verdict {
  Verdict(std::string_view op_name, const CodecEntry* of) : op(op_name), codec(of) {}
  std::string op;  // "parse-only" or "decode"
  const CodecEntry* codec;
  std::string outcome;  // accepted, rejected, crashed
  std::string error;    // the library's message, or how the child ended
  long long offset = -1;
  // What it read, to compare: decode, the rows' count and digest;
  // parse-only, the canonical form's digest (kCanonical...), or why none.
  std::string answer;
  std::string values;  // parse-only: the canonical form, when short
  std::string text;    // parse-only: the canonical form (not written out)
  std::string mark;
};

// A parse-only answer that holds a canonical form's digest: those compare.
constexpr std::string_view kCanonical = "canonical form ";
// Canonical forms up to this size go into the verdict whole.
constexpr std::size_t kShortValues = 256;

// FNV-1a: two parsers that read the same give the same text, so the same
// digest.
unsigned long long fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// The digest of the canonical JSON lines.
std::string digest_of(const Records& records) {
  std::string lines;
  append_json_lines(lines, records);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%zu rows, digest %016llx", row_count(records), fnv1a(lines));
  return buf;
}

// parse-only: the canonical form written to values_path, and its digest.
// The form's parse is the parse-only parse (the same library calls, another
// sink), so the file is parsed once; only when it fails, or there is no form
// (a document too deep to walk), does parse_only itself say accepted or
// rejected, and the answer why there is no form.
std::string parse_only_answer(Decoder& decoder, std::string_view input,
                              const std::string& values_path) {
  std::string text, why;
  try {
    if (decoder.canonical(input, text)) {
      std::ofstream(values_path, std::ios::binary) << text;
      char buf[64];
      std::snprintf(buf, sizeof buf, "digest %016llx, %zu bytes", fnv1a(text), text.size());
      return std::string(kCanonical) + buf;
    }
  } catch (const DecodeError& e) {
    why = "no canonical form: " + e.describe();
  } catch (const std::length_error& e) {
    why = std::string("no canonical form: ") + e.what();
  }
  decoder.parse_only(input);
  return why;
}

// What the child reports: "A" and the answer, or "R", the offset, a tab and
// the library's message.
std::string run_case(const CodecEntry& codec, bool decode, std::string_view input,
                     const std::string& values_path) {
  auto decoder = codec.make_decoder();
  try {
    if (!decode) return "A" + parse_only_answer(*decoder, input, values_path);
    Records rows = empty_records(DatasetKind::entity);
    decoder->decode(input, rows);
    return "A" + digest_of(rows);
  } catch (const DecodeError& e) {
    const std::string prefix =
        e.library() == codec.library ? "" : std::string(codec.library) + ": ";
    return "R" + std::to_string(e.offset()) + "\t" + prefix + e.describe();
  }
}

void read_report(const ChildResult& r, Verdict& v) {
  if (r.end == ChildResult::End::exited && r.code == 0 && r.message.starts_with("A")) {
    v.outcome = "accepted";
    v.answer = r.message.substr(1);
  } else if (r.end == ChildResult::End::exited && r.code == 0 && r.message.starts_with("R")) {
    v.outcome = "rejected";
    const std::size_t tab = r.message.find('\t');
    v.offset = std::stoll(r.message.substr(1, tab - 1));
    v.error = utf8_message(std::string_view(r.message).substr(tab + 1));
  } else {
    v.outcome = "crashed";
    v.error = utf8_message(r.code == ChildResult::kThrew
                               ? "exception other than DecodeError: " + r.message
                               : r.describe());
  }
}

// text around the first byte where it differs from common, each side, as
// one line of valid UTF-8.
std::pair<std::string, std::string> first_difference(const std::string& text,
                                                     const std::string& common) {
  std::size_t at = 0;
  while (at < text.size() && at < common.size() && text[at] == common[at]) ++at;
  const std::size_t from = at > 24 ? at - 24 : 0;
  const auto excerpt = [&](const std::string& s) {
    std::string e = (from ? "..." : "") + s.substr(from, at - from + 40);
    if (from + (at - from + 40) < s.size()) e += "...";
    return utf8_message(e);
  };
  return {"at byte " + std::to_string(at) + ": " + excerpt(text), excerpt(common)};
}

// The marks of one op's verdicts: who accepts what others reject, and whose
// answer differs from the one most libraries give (parse-only: with the first
// difference of the canonical forms).
void mark(std::vector<Verdict*>& op) {
  const auto count = [&](std::string_view outcome) {
    return std::count_if(op.begin(), op.end(),
                         [&](const Verdict* v) { return v->outcome == outcome; });
  };
  const long rejected = count("rejected");
  std::map<std::string, int> answers;
  const auto compared = [](const Verdict* v) {
    return v->outcome == "accepted" && !v->answer.empty() &&
           (v->op == "decode" || v->answer.starts_with(kCanonical));
  };
  std::map<std::string, const Verdict*> first_of;
  for (const Verdict* v : op)
    if (compared(v) && ++answers[v->answer] == 1) first_of[v->answer] = v;
  for (Verdict* v : op) {
    if (v->outcome != "accepted") continue;
    if (rejected > 0) v->mark = "accepts what " + std::to_string(rejected) + " reject";
    if (!compared(v)) continue;
    // The most common other answer; v reads differently unless its own is
    // more common (two answers as common as each other both read differently).
    const auto common =
        std::max_element(answers.begin(), answers.end(), [&](const auto& a, const auto& b) {
          return (a.first == v->answer ? 0 : a.second) < (b.first == v->answer ? 0 : b.second);
        });
    if (common->first == v->answer || answers[v->answer] > common->second) continue;
    if (!v->mark.empty()) v->mark += "; ";
    const std::string others =
        std::to_string(common->second) + (common->second == 1 ? " other" : " others");
    if (v->op == "parse-only") {
      const auto [ours, theirs] = first_difference(v->text, first_of[common->first]->text);
      v->mark += "reads it differently (" + ours + "; " + others + ": " + theirs + ")";
      continue;
    }
    v->mark += "reads it differently (" + v->answer + "; " + others + ": " + common->first + ")";
    // What the registry already says the decoder does to such rows.
    if (!v->codec->exact) v->mark += ", labelled inexact doubles";
    if (has_label(v->codec->labels, label::kNoEntityRows)) v->mark += ", labelled no entity rows";
  }
}

struct FileVerdicts {
  std::string path, kind;
  std::size_t bytes = 0;
  std::vector<Verdict> verdicts;
};

// values_dir: where the children write each parser's canonical form, as
// FILE.LIBRARY.txt.
FileVerdicts judge(const std::string& kind, const std::string& path, const Limits& limits,
                   const std::filesystem::path& values_dir) {
  FileVerdicts file{path, kind, 0, {}};
  // Decoders may read kInputPadding bytes past the end (simdjson does).
  const std::string input = padded_copy(read_input(path));
  file.bytes = input.size();
  for (const CodecEntry* codec : codecs_of(decoders_format(kind), Role::decode)) {
    file.verdicts.emplace_back("parse-only", codec);
    if (is_feed(kind)) file.verdicts.emplace_back("decode", codec);
  }
  const auto values_path = [&](const Verdict& v) {
    return (values_dir / (std::filesystem::path(path).filename().string() + "." +
                          std::string(v.codec->library) + ".txt"))
        .string();
  };
  run_cases_in_children(
      limits, file.verdicts.size(),
      [&](std::size_t i) {
        const Verdict& v = file.verdicts[i];
        return run_case(*v.codec, v.op == "decode", input, values_path(v));
      },
      [&](std::size_t i, const ChildResult& r) { read_report(r, file.verdicts[i]); });
  for (Verdict& v : file.verdicts) {
    if (v.op != "parse-only" || !v.answer.starts_with(kCanonical)) continue;
    v.text = read_input(values_path(v));
    if (v.text.size() <= kShortValues) v.values = v.text;
  }
  for (const std::string_view op : {"parse-only", "decode"}) {
    std::vector<Verdict*> of_op;
    for (Verdict& v : file.verdicts)
      if (v.op == op) of_op.push_back(&v);
    mark(of_op);
  }
  return file;
}

std::string as_json(const std::vector<FileVerdicts>& files) {
  std::string out = "{\"files\": [";
  for (std::size_t f = 0; f < files.size(); ++f) {
    out += f ? ",\n  {" : "\n  {";
    out += "\"path\": ";
    append_json_string(out, files[f].path);
    out += ", \"kind\": ";
    append_json_string(out, files[f].kind);
    out += ", \"bytes\": " + std::to_string(files[f].bytes) + ", \"verdicts\": [";
    for (std::size_t i = 0; i < files[f].verdicts.size(); ++i) {
      const Verdict& v = files[f].verdicts[i];
      out += i ? ",\n    {" : "\n    {";
      out += "\"op\": \"" + v.op + "\", \"library\": \"" + std::string(v.codec->library) +
             "\", \"verdict\": \"" + v.outcome + "\", \"offset\": " + std::to_string(v.offset);
      for (const auto& [key, value] : {std::pair{"error", &v.error},
                                       {"answer", &v.answer},
                                       {"values", &v.values},
                                       {"mark", &v.mark}}) {
        out += ", \"" + std::string(key) + "\": ";
        append_json_string(out, *value);
      }
      out += "}";
    }
    out += "]}";
  }
  out += "\n]}\n";
  return out;
}

// text with its line breaks and other control characters as spaces: one line per verdict
// (JsonCpp's messages hold a newline).
std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

std::string as_text(const std::vector<FileVerdicts>& files) {
  std::string out;
  for (const FileVerdicts& f : files) {
    out += f.path + " (" + f.kind + ", " + std::to_string(f.bytes) + " bytes)\n";
    for (const Verdict& v : f.verdicts) {
      char line[96];
      std::snprintf(line, sizeof line, "  %-10s %-20s %-8s", v.op.c_str(),
                    std::string(v.codec->library).c_str(), v.outcome.c_str());
      out += line;
      if (!v.error.empty()) out += "  " + one_line(v.error);
      if (!v.values.empty()) out += "  " + one_line(v.values);
      if (!v.mark.empty()) out += "  [" + one_line(v.mark) + "]";
      out += "\n";
    }
  }
  return out;
}

}  // namespace

int run_verdict(Args args) {
  const ParsedArgs a = parse_args(args, {{"json", true}, {"values", true}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (a.positionals.empty()) throw UsageError("missing KIND:FILE");
  Limits limits = default_limits();
  limits.isolate_network = network_isolation_available();
  // The canonical forms go to --values DIR, or to a folder of our own that
  // is removed on the way out.
  struct Scratch {
    std::filesystem::path dir;
    bool ours = false;
    ~Scratch() {
      std::error_code ec;
      if (ours) std::filesystem::remove_all(dir, ec);
    }
  } values;
  if (a.has("values")) {
    values.dir = std::string(*a.value("values"));
    std::filesystem::create_directories(values.dir);
  } else {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "wirebench-values-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot make a folder in the temp dir");
    values.dir = tmpl;
    values.ours = true;
  }
  std::vector<FileVerdicts> files;
  for (std::string_view spec : a.positionals) {
    std::string kind, path;
    if (!split_kind_path(spec, kind, path) || decoders_format(kind).empty())
      throw UsageError("want KIND:FILE (as `wirebench payload-kind` prints it), got '" +
                       std::string(spec) + "'");
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) > kMaxPayloadBytes && !ec)
      throw UsageError(path + ": over the limit of 1 GiB");
    files.push_back(judge(kind, path, limits, values.dir));
  }
  write_stdout(as_text(files));
  if (a.has("json")) {
    const std::string path(*a.value("json"));
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      out << as_json(files);
      if (!out.flush()) throw std::runtime_error("cannot write '" + tmp + "'");
    }
    std::filesystem::rename(tmp, path);
  }
  return kExitOk;
}

}  // namespace wb::cli
