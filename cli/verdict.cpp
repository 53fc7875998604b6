// `verdict`: every parser of a user's file's kind over it, each in a
// sandboxed child (cli/sandbox.hpp), as the hostile-input matrix runs them:
// accepted or rejected, with the library's error and byte offset, or crashed.
// `./wirebench bench --payload` writes it beside the result
// (<result>-verdict.json) and the page shows it as the verdict column.
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
For an OData feed, every decoder of its format also decodes it into entity
rows (op "decode"), and the rows are compared: a decoder whose rows differ
from the most common answer "reads it differently".
A library that accepts what others reject is marked "accepts what N reject".
A rejected file is not timed for that library by `bench --payload`.

  --json OUT  also write the verdicts as JSON to OUT

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
  std::string answer;  // decode: the rows' count and digest, to compare
  std::string mark;
};

// FNV-1a of the canonical JSON lines: two decoders that read the same rows
// give the same text, so the same digest.
std::string digest_of(const Records& records) {
  std::string lines;
  append_json_lines(lines, records);
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : lines) hash = (hash ^ c) * 1099511628211ull;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%zu rows, digest %016llx", row_count(records),
                static_cast<unsigned long long>(hash));
  return buf;
}

// What the child reports: "A" and the answer, or "R", the offset, a tab and
// the library's message.
std::string run_case(const CodecEntry& codec, bool decode, std::string_view input) {
  auto decoder = codec.make_decoder();
  try {
    if (!decode) {
      decoder->parse_only(input);
      return "A";
    }
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

// The marks of one op's verdicts: who accepts what others reject, and (for
// decode) whose rows differ from the answer most decoders give.
void mark(std::vector<Verdict*>& op) {
  const auto count = [&](std::string_view outcome) {
    return std::count_if(op.begin(), op.end(),
                         [&](const Verdict* v) { return v->outcome == outcome; });
  };
  const long rejected = count("rejected");
  std::map<std::string, int> answers;
  for (const Verdict* v : op)
    if (v->outcome == "accepted" && !v->answer.empty()) ++answers[v->answer];
  const auto common =
      std::max_element(answers.begin(), answers.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  for (Verdict* v : op) {
    if (v->outcome != "accepted") continue;
    if (rejected > 0) v->mark = "accepts what " + std::to_string(rejected) + " reject";
    if (common != answers.end() && v->answer != common->first) {
      if (!v->mark.empty()) v->mark += "; ";
      v->mark += "reads it differently (" + v->answer + "; " + std::to_string(common->second) +
                 " others: " + common->first + ")";
      // What the registry already says the decoder does to such rows.
      if (!v->codec->exact) v->mark += ", labelled inexact doubles";
      if (has_label(v->codec->labels, label::kNoEntityRows)) v->mark += ", labelled no entity rows";
    }
  }
}

struct FileVerdicts {
  std::string path, kind;
  std::size_t bytes = 0;
  std::vector<Verdict> verdicts;
};

FileVerdicts judge(const std::string& kind, const std::string& path, const Limits& limits) {
  FileVerdicts file{path, kind, 0, {}};
  // Decoders may read kInputPadding bytes past the end (simdjson does).
  const std::string input = padded_copy(read_input(path));
  file.bytes = input.size();
  for (const CodecEntry* codec : codecs_of(decoders_format(kind), Role::decode)) {
    file.verdicts.emplace_back("parse-only", codec);
    if (is_feed(kind)) file.verdicts.emplace_back("decode", codec);
  }
  run_cases_in_children(
      limits, file.verdicts.size(),
      [&](std::size_t i) {
        return run_case(*file.verdicts[i].codec, file.verdicts[i].op == "decode", input);
      },
      [&](std::size_t i, const ChildResult& r) { read_report(r, file.verdicts[i]); });
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
      for (const auto& [key, value] :
           {std::pair{"error", &v.error}, {"answer", &v.answer}, {"mark", &v.mark}}) {
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
      if (!v.mark.empty()) out += "  [" + one_line(v.mark) + "]";
      out += "\n";
    }
  }
  return out;
}

}  // namespace

int run_verdict(Args args) {
  const ParsedArgs a = parse_args(args, {{"json", true}});
  if (a.help) {
    write_stdout(kHelp);
    return kExitOk;
  }
  if (a.positionals.empty()) throw UsageError("missing KIND:FILE");
  Limits limits = default_limits();
  limits.isolate_network = network_isolation_available();
  std::vector<FileVerdicts> files;
  for (std::string_view spec : a.positionals) {
    std::string kind, path;
    if (!split_kind_path(spec, kind, path) || decoders_format(kind).empty())
      throw UsageError("want KIND:FILE (as `wirebench payload-kind` prints it), got '" +
                       std::string(spec) + "'");
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) > kMaxPayloadBytes && !ec)
      throw UsageError(path + ": over the limit of 1 GiB");
    files.push_back(judge(kind, path, limits));
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
