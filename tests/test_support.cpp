#include "tests/test_support.hpp"

#include "codecs/compress/compressor.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <typeindex>

namespace wb::test {

// ---------------------------------------------------------------- files

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::filesystem::path source_dir() {
  return WB_SOURCE_DIR;
}
bool left_out_of_build(std::string_view line) {
  for (const std::string& l : left_out_codecs())
    if (l == line) return true;
  for (std::string_view c : left_out_compressors())
    if (line == "compress." + std::string(c)) return true;
  return false;
}

std::filesystem::path fixtures_dir() {
  return source_dir() / "fixtures";
}

// -------------------------------------------------- third-party corpora

ExternalCorpus external_corpus(std::string_view sub, std::string_view what) {
  ExternalCorpus c;
  const char* root = std::getenv("WIREBENCH_CORPUS");
  if (root && *root) c.dir = std::filesystem::absolute(std::filesystem::path(root) / sub);
  c.skip_line = std::string(what) + " skipped: set WIREBENCH_CORPUS to a folder with " +
                std::string(sub) +
                "/ (.ci/run sets it when the shared corpora sit beside the clone)";
  return c;
}

// ---------------------------------------------------------------- datasets

int test_rows(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::message:
      return 25;
    case DatasetKind::airport:
      return 23;
    case DatasetKind::science:
    case DatasetKind::entity:  // science rows as properties
      break;
  }
  return 45;
}

std::vector<DatasetKind> all_datasets(std::string_view format) {
  std::vector<DatasetKind> out;
  for (const DatasetInfo& d : kDatasets)
    if (format.empty() ? d.formats.empty() : defined_for(d, format)) out.push_back(d.kind);
  return out;
}

std::string_view dataset_name(DatasetKind kind) {
  return dataset_info(kind).name;
}

// ---------------------------------------------------------------- codecs

const CodecEntry& primary_encoder(std::string_view format) {
  const auto encoders = codecs_of(format, Role::encode);
  if (encoders.empty())
    throw std::runtime_error("format " + std::string(format) + " has no encoder");
  return *encoders.front();
}

std::string encode(const CodecEntry& encoder, const Records& records) {
  std::string out;
  encoder.make_encoder()->encode(records, out);
  return out;
}

Records decode(const CodecEntry& decoder, std::string_view payload, DatasetKind kind) {
  const std::string padded = padded_copy(payload);
  Records out = empty_records(kind);
  decoder.make_decoder()->decode(padded, out);
  return out;
}

Syntax syntax_of(std::string_view format) {
  const FormatEntry* f = find_format(format);
  if (!f) throw std::runtime_error("format " + std::string(format) + " has no WB_FORMAT line");
  return f->syntax;
}

std::string_view payload_extension(std::string_view format) {
  const Syntax syntax = syntax_of(format);
  return syntax == Syntax::binary ? "bin" : syntax_name(syntax);
}

std::string gtest_name(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) c = '_';
  }
  return out;
}

std::vector<DecoderCase> decoder_cases(std::string_view only_format) {
  std::vector<DecoderCase> out;
  for (const CodecEntry& c : codecs())
    if (c.role == Role::decode && (only_format.empty() || c.format == only_format))
      out.push_back({&c});
  return out;
}

std::vector<DecoderCase> decoder_cases(Syntax syntax) {
  std::vector<DecoderCase> out;
  for (const CodecEntry& c : codecs())
    if (c.role == Role::decode && syntax_of(c.format) == syntax) out.push_back({&c});
  return out;
}

std::vector<DecoderCase> xml_decoder_cases() {
  std::vector<DecoderCase> out = decoder_cases("atom");
  for (const DecoderCase& c : decoder_cases("soap")) out.push_back(c);
  return out;
}

std::vector<DecoderCase> distinct_decoder_cases() {
  std::vector<DecoderCase> out;
  std::set<std::type_index> seen;
  for (const DecoderCase& c : decoder_cases()) {
    const auto decoder = c.decoder->make_decoder();
    // typeid of a named reference: clang warns of the side effects it reads
    // into a dereference inside typeid.
    const auto& made = *decoder;
    if (seen.insert(std::type_index(typeid(made))).second) out.push_back(c);
  }
  return out;
}

std::string decoder_case_name(const ::testing::TestParamInfo<DecoderCase>& info) {
  const CodecEntry& d = *info.param.decoder;
  return gtest_name(std::string(d.format) + "_" + std::string(d.library));
}

bool writes_dataset(const CodecEntry& encoder, DatasetKind kind) {
  return kind != DatasetKind::entity || !has_label(encoder.labels, label::kNoEntityRows);
}

std::vector<EncoderCase> encoder_cases() {
  std::vector<EncoderCase> out;
  for (const CodecEntry& c : codecs())
    if (c.role == Role::encode)
      for (DatasetKind kind : all_datasets(c.format))
        if (writes_dataset(c, kind)) out.push_back({&c, kind});
  return out;
}

std::string encoder_case_name(const ::testing::TestParamInfo<EncoderCase>& info) {
  const EncoderCase& p = info.param;
  return gtest_name(std::string(p.encoder->format) + "_" + std::string(dataset_name(p.dataset)) +
                    "_" + std::string(p.encoder->library));
}

std::vector<PairCase> pair_cases() {
  std::vector<PairCase> out;
  for (std::string_view format : formats())
    for (const CodecEntry* enc : codecs_of(format, Role::encode))
      for (const CodecEntry* dec : codecs_of(format, Role::decode))
        for (DatasetKind kind : all_datasets(format))
          if (writes_dataset(*enc, kind) && writes_dataset(*dec, kind))
            out.push_back({enc, dec, kind, test_rows(kind)});
  return out;
}

std::string pair_case_name(const ::testing::TestParamInfo<PairCase>& info) {
  const PairCase& p = info.param;
  std::string name = std::string(p.encoder->format) + "_" + std::string(dataset_name(p.dataset));
  name += "_" + std::string(p.decoder->library) + "_from_" + std::string(p.encoder->library);
  return gtest_name(name);
}

void PrintTo(const DecoderCase& c, std::ostream* os) {
  *os << c.decoder->format << " decoder " << c.decoder->library;
}
void PrintTo(const EncoderCase& c, std::ostream* os) {
  *os << c.encoder->format << " encoder " << c.encoder->library << ", " << dataset_name(c.dataset);
}
void PrintTo(const PairCase& c, std::ostream* os) {
  *os << c.encoder->format << " " << dataset_name(c.dataset) << " " << c.rows << " rows, "
      << c.decoder->library << " from " << c.encoder->library;
}

// ---------------------------------------------------------------- records

::testing::AssertionResult same_records(const Records& expected, const Records& actual,
                                        bool exact) {
  if (auto d =
          first_difference(expected, actual, exact ? DoubleMatch::identical : DoubleMatch::close))
    return ::testing::AssertionFailure() << *d;
  // Guard: the field-wise comparison must agree with operator== (a member
  // missing from a Schema would be compared by neither).
  if (exact && !(expected == actual))
    return ::testing::AssertionFailure() << "operator== differs, field-wise equal";
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------- processes

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TempFile::TempFile(std::string_view suffix) {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("wirebench-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) +
           std::string(suffix));
}

TempFile::~TempFile() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

RunResult run(const std::vector<std::string>& argv) {
  TempFile err(".stderr");
  std::string command;
  for (const std::string& a : argv) command += shell_quote(a) + " ";
  command += "2>" + shell_quote(err.path().string());
  RunResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (std::filesystem::exists(err.path())) r.err = read_file(err.path());
  return r;
}

}  // namespace wb::test
