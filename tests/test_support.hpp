// Shared helpers of the test suite: files, small datasets, record comparison
// with a readable diff, registry-driven case lists with gtest-safe names, and
// running the project's executables.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/registry.hpp"
#include "generators/datasets.hpp"
#include "generators/record_diff.hpp"

namespace wb::test {

// ---------------------------------------------------------------- files
std::string read_file(const std::filesystem::path& path);  // throws std::runtime_error
void write_file(const std::filesystem::path& path, std::string_view bytes);
std::filesystem::path source_dir();    // WB_SOURCE_DIR
std::filesystem::path fixtures_dir();  // source_dir() / "fixtures"
// Whether a registry line ("atom.decode.xerces-dom") was left out of this
// build with its library (cmake's WB_WITH_<LIBRARY>=OFF): a test of that one
// codec skips it.
bool left_out_of_build(std::string_view line);
// Skips the running test when `line` was left out of this build; the skip
// message names the line, so a skipped test says which library it lacked.
#define SKIP_WITHOUT(line)                                                                         \
  if (const std::string wb_left_out_line_{line}; ::wb::test::left_out_of_build(wb_left_out_line_)) \
  GTEST_SKIP() << wb_left_out_line_ << " left out of the build"

// -------------------------------------------------- third-party corpora
// Other projects' corpora are not in the tree (docs/testing.md). The one
// environment variable WIREBENCH_CORPUS names a folder laid out as
// corpus/real/, corpus/odata/ and conformance/json/test_parsing/.
struct ExternalCorpus {
  // WIREBENCH_CORPUS/sub when the variable is set, whether or not it exists:
  // a run that asks for the corpus fails on a missing folder, never skips.
  std::optional<std::filesystem::path> dir;
  // The one line a test prints when it skips for want of the variable.
  std::string skip_line;
};
// sub: the folder under WIREBENCH_CORPUS ("corpus/real"); what: what is
// skipped without it ("real payloads").
ExternalCorpus external_corpus(std::string_view sub, std::string_view what);

// ---------------------------------------------------------------- datasets
// Small row counts keep the suite fast; each is past row 7, so every dataset
// includes a row with escaping and non-ASCII text (index % 20 == 7).
int test_rows(DatasetKind kind);
// format empty: the datasets every format defines (not entity, which only
// the OData formats define and which takes a payload of any dataset);
// otherwise the datasets that format defines.
std::vector<DatasetKind> all_datasets(std::string_view format = {});
std::string_view dataset_name(DatasetKind kind);

// ---------------------------------------------------------------- codecs
// The writer whose output is the golden: the first encoder of the format in
// registry order (the hand-written reference writer is listed first).
const CodecEntry& primary_encoder(std::string_view format);
std::string encode(const CodecEntry& encoder, const Records& records);
// Decodes from a padded copy, as every decoder may read kInputPadding past the end.
Records decode(const CodecEntry& decoder, std::string_view payload, DatasetKind kind);
// The format's syntax (its WB_FORMAT line; throws for an undeclared one).
Syntax syntax_of(std::string_view format);
// The extension of its payload files: "json", "xml" or "bin".
std::string_view payload_extension(std::string_view format);

// [A-Za-z0-9_] only, as gtest requires in test names.
std::string gtest_name(std::string_view s);

// One decoder of a format.
struct DecoderCase {
  const CodecEntry* decoder;
};
std::vector<DecoderCase> decoder_cases(std::string_view only_format = {});
// Every decoder of the formats of one syntax.
std::vector<DecoderCase> decoder_cases(Syntax syntax);
// Every decoder of the XML formats (atom, then soap).
std::vector<DecoderCase> xml_decoder_cases();
// decoder_cases() with each decoder class once, under its first format: a
// family line (WB_JSON_DECODER, WB_ATOM_DECODER) registers one class under
// several formats, and input that is no feed of any of them meets the same
// code whichever format it is given as.
std::vector<DecoderCase> distinct_decoder_cases();
std::string decoder_case_name(const ::testing::TestParamInfo<DecoderCase>& info);

// One encoder of a format with one dataset.
struct EncoderCase {
  const CodecEntry* encoder;
  DatasetKind dataset;
};
// Whether the codec round-trips the dataset: all of its format's but entity
// rows for one labelled "no entity rows" (label::kNoEntityRows), which the
// pairings leave out.
bool writes_dataset(const CodecEntry& encoder, DatasetKind kind);
std::vector<EncoderCase> encoder_cases();
std::string encoder_case_name(const ::testing::TestParamInfo<EncoderCase>& info);

// Every decoder of a format against every encoder of the same format, per dataset.
struct PairCase {
  const CodecEntry* encoder;
  const CodecEntry* decoder;
  DatasetKind dataset;
  int rows;
};
std::vector<PairCase> pair_cases();
std::string pair_case_name(const ::testing::TestParamInfo<PairCase>& info);

// Readable parameters in gtest's output instead of a byte dump.
void PrintTo(const DecoderCase& c, std::ostream* os);
void PrintTo(const EncoderCase& c, std::ostream* os);
void PrintTo(const PairCase& c, std::ostream* os);

// ---------------------------------------------------------------- records
// Success, or the first differing row and field with both values printed.
// exact: doubles bit for bit (generators/record_diff.hpp); otherwise doubles
// may differ by 1e-15 relative. Everything else must be equal.
::testing::AssertionResult same_records(const Records& expected, const Records& actual,
                                        bool exact = true);

// ---------------------------------------------------------------- processes
struct RunResult {
  int exit_code = -1;  // -1: did not exit normally
  std::string out;
  std::string err;
};
// Runs argv (the first element is the executable) through /bin/sh with
// stdout and stderr captured.
RunResult run(const std::vector<std::string>& argv);
std::string shell_quote(std::string_view s);
// A fresh path in the temp directory; the file is removed by the destructor.
class TempFile {
 public:
  explicit TempFile(std::string_view suffix);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace wb::test
