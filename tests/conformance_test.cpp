// JSONTestSuite (fixtures/conformance/json/test_parsing) through every JSON
// decoder. y_ files are valid JSON, n_ files are not, i_ files are up to the
// parser. parse_only may answer anything on any file but must not crash or
// throw anything but DecodeError; decode() must reject every n_ file. y_ files
// a parser rejects are listed in the output and as the test property
// "rejected_valid" (the accept/reject matrix is a report item, not a test
// failure: docs/conformance.md).
#include <algorithm>
#include <typeinfo>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

std::filesystem::path corpus_dir() {
  return fixtures_dir() / "conformance" / "json" / "test_parsing";
}

struct CorpusFile {
  std::string name;
  std::string bytes;
};

std::vector<CorpusFile> load_corpus() {
  std::vector<CorpusFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir()))
    if (entry.is_regular_file())
      out.push_back({entry.path().filename().string(), read_file(entry.path())});
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return out;
}

// Independent of the registry, so a missing corpus fails even before any
// JSON decoder is registered.
TEST(ConformanceCorpus, IsPresent) {
  ASSERT_TRUE(std::filesystem::is_directory(corpus_dir()))
      << corpus_dir() << " is missing: the corpus is part of the repository";
  EXPECT_GT(load_corpus().size(), 300u);
}

class Conformance : public ::testing::TestWithParam<DecoderCase> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::is_directory(corpus_dir()))
        << corpus_dir() << " is missing: the corpus is part of the repository";
    corpus_ = load_corpus();
    ASSERT_GT(corpus_.size(), 300u) << "incomplete corpus in " << corpus_dir();
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

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(decoder_cases("json")),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

}  // namespace
}  // namespace wb::test
