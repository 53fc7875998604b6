// The JSON conformance corpora through every JSON decoder: the project's own
// (fixtures/conformance/json, written by tools/gen_json_corpus.py) always,
// JSONTestSuite's test_parsing when WIREBENCH_CORPUS provides it. y_ files are
// JSON texts, n_ files are not, i_ files are up to the parser. parse_only may
// answer anything on any file but must not crash or throw anything but
// DecodeError; decode() must reject every n_ file. y_ files a parser rejects
// are listed in the output and as the test property "rejected_valid" (the
// accept/reject matrix is a report item, not a test failure:
// docs/conformance.md).
#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <typeinfo>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

std::filesystem::path own_corpus_dir() {
  return fixtures_dir() / "conformance" / "json";
}

const ExternalCorpus& json_test_suite() {
  static const ExternalCorpus c =
      external_corpus("conformance/json/test_parsing", "JSONTestSuite's conformance matrix");
  return c;
}

struct CorpusFile {
  std::string name;
  std::string bytes;
};

// The y_, n_ and i_ .json files of a folder, by name.
std::vector<CorpusFile> load_corpus(const std::filesystem::path& dir) {
  std::vector<CorpusFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const bool is_case = name.size() > 2 && name[1] == '_' &&
                         std::string_view("yni").find(name[0]) != std::string_view::npos;
    if (entry.is_regular_file() && is_case && name.ends_with(".json"))
      out.push_back({name, read_file(entry.path())});
  }
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return out;
}

// Independent of the registry, so a missing corpus fails even before any
// JSON decoder is registered: every case of the index is there, and nothing
// else.
TEST(ConformanceCorpus, OwnCorpusMatchesItsIndex) {
  const std::filesystem::path dir = own_corpus_dir();
  ASSERT_TRUE(std::filesystem::is_regular_file(dir / "cases.tsv"))
      << dir << " has no cases.tsv: run tools/gen_json_corpus.py";
  std::set<std::string> indexed;
  std::istringstream index(read_file(dir / "cases.tsv"));
  for (std::string line; std::getline(index, line);)
    if (!line.empty() && line.front() != '#') indexed.insert(line.substr(0, line.find('\t')));
  std::set<std::string> present;
  for (const CorpusFile& f : load_corpus(dir)) present.insert(f.name);
  EXPECT_EQ(present, indexed);
  EXPECT_GT(present.size(), 300u);
}

// The one test that runs without JSONTestSuite: it skips with the line that
// says what was skipped and how to run it.
TEST(ConformanceCorpus, JsonTestSuiteIsPresent) {
  const ExternalCorpus& c = json_test_suite();
  if (!c.dir) GTEST_SKIP() << c.skip_line;
  ASSERT_TRUE(std::filesystem::is_directory(*c.dir))
      << *c.dir << " is missing: WIREBENCH_CORPUS names a folder without it";
  EXPECT_GT(load_corpus(*c.dir).size(), 300u);
}

// One decoder over one corpus.
struct ConformanceCase {
  const CodecEntry* decoder;
  bool third_party;  // JSONTestSuite rather than the project's corpus
};

std::vector<ConformanceCase> conformance_cases() {
  std::vector<ConformanceCase> out;
  for (const DecoderCase& d : decoder_cases("json")) {
    out.push_back({d.decoder, false});
    if (json_test_suite().dir) out.push_back({d.decoder, true});
  }
  return out;
}

std::string conformance_case_name(const ::testing::TestParamInfo<ConformanceCase>& info) {
  const ConformanceCase& c = info.param;
  return gtest_name(std::string(c.decoder->library) + (c.third_party ? "_JSONTestSuite" : ""));
}

void PrintTo(const ConformanceCase& c, std::ostream* os) {
  *os << "json decoder " << c.decoder->library << " on "
      << (c.third_party ? "JSONTestSuite" : "the project's corpus");
}

class Conformance : public ::testing::TestWithParam<ConformanceCase> {
 protected:
  void SetUp() override {
    const std::filesystem::path dir =
        GetParam().third_party ? *json_test_suite().dir : own_corpus_dir();
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir << " is missing";
    corpus_ = load_corpus(dir);
    ASSERT_GT(corpus_.size(), 300u) << "incomplete corpus in " << dir;
  }
  std::vector<CorpusFile> corpus_;
};

TEST_P(Conformance, ParseOnlyNeverCrashes) {
  const CodecEntry& d = *GetParam().decoder;
  auto decoder = d.make_decoder();
  std::vector<std::string> rejected_valid, accepted_invalid;
  for (const CorpusFile& f : corpus_) {
    const std::string padded = padded_copy(f.bytes);
    bool accepted = false;
    try {
      decoder->parse_only(padded);
      accepted = true;
    } catch (const DecodeError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << f.name << ": threw " << typeid(e).name() << ": " << e.what();
    }
    if (f.name.starts_with("y_") && !accepted) rejected_valid.push_back(f.name);
    if (f.name.starts_with("n_") && accepted) accepted_invalid.push_back(f.name);
  }
  std::string rejected, accepted;
  for (const auto& n : rejected_valid) rejected += n + " ";
  for (const auto& n : accepted_invalid) accepted += n + " ";
  RecordProperty("rejected_valid", rejected);
  RecordProperty("accepted_invalid", accepted);
  std::cout << d.library << ": parse_only rejects " << rejected_valid.size()
            << " valid files: " << rejected << "\n"
            << d.library << ": parse_only accepts " << accepted_invalid.size()
            << " invalid files: " << accepted << "\n";
}

TEST_P(Conformance, DecodeRejectsEveryInvalidFile) {
  const CodecEntry& d = *GetParam().decoder;
  auto decoder = d.make_decoder();
  for (const CorpusFile& f : corpus_) {
    const std::string padded = padded_copy(f.bytes);
    Records out = empty_records(DatasetKind::message);
    try {
      decoder->decode(padded, out);
      EXPECT_FALSE(f.name.starts_with("n_"))
          << f.name << " is not JSON but decoded to " << row_count(out) << " rows";
    } catch (const DecodeError& e) {
      EXPECT_STRNE(e.what(), "") << f.name;
    } catch (const std::exception& e) {
      ADD_FAILURE() << f.name << ": threw " << typeid(e).name() << ": " << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(conformance_cases()),
                         conformance_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

}  // namespace
}  // namespace wb::test
