// Real payloads from other stacks (corpus/real/ under WIREBENCH_CORPUS, see
// its SOURCES.md) through every atom and soap decoder's parse_only, and the
// entry counts SOURCES.md states for the Atom and JSON light files, both from
// a plain pugixml walk and from every atom/json decoder binding the files as
// the generic entity dataset. Without the variable the parameterized suites
// are not instantiated and RealAtomCorpus says once what was skipped.
#include <algorithm>
#include <map>

#include "codecs/xml/adapters/pugixml_namespaces.hpp"
#include "codecs/xml/binder.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

const ExternalCorpus& real_corpus() {
  static const ExternalCorpus c = external_corpus("corpus/real", "real payloads");
  return c;
}

// Decoder cases only with the corpus: without it the suites have no tests.
std::vector<DecoderCase> with_corpus(std::vector<DecoderCase> cases) {
  return real_corpus().dir ? cases : std::vector<DecoderCase>{};
}

std::filesystem::path real_dir(std::string_view format) {
  return *real_corpus().dir / format;
}

struct RealFile {
  std::string name;
  std::string bytes;
};

std::vector<RealFile> load_dir(std::string_view format) {
  std::vector<RealFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(real_dir(format)))
    if (entry.is_regular_file())
      out.push_back({entry.path().filename().string(), read_file(entry.path())});
  std::sort(out.begin(), out.end(),
            [](const RealFile& a, const RealFile& b) { return a.name < b.name; });
  return out;
}

::testing::AssertionResult real_dir_exists(std::string_view format) {
  if (std::filesystem::is_directory(real_dir(format))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << real_dir(format) << " is missing: WIREBENCH_CORPUS names a folder without it";
}

// ------------------------------------------------------------ parse_only
class RealPayloads : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(RealPayloads, EveryFileParses) {
  const CodecEntry& d = *GetParam().decoder;
  ASSERT_TRUE(real_dir_exists(d.format));
  const std::vector<RealFile> files = load_dir(d.format);
  ASSERT_FALSE(files.empty()) << "no files in " << real_dir(d.format);
  auto decoder = d.make_decoder();
  for (const RealFile& f : files) {
    const std::string padded = padded_copy(f.bytes);
    try {
      decoder->parse_only(std::string_view(padded.data(), f.bytes.size()));
    } catch (const DecodeError& e) {
      ADD_FAILURE() << f.name << ": " << e.describe();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, RealPayloads,
                         ::testing::ValuesIn(with_corpus(xml_decoder_cases())), decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RealPayloads);

// ------------------------------------------------------------ entry counts
// Entries per file as SOURCES.md gives them; expanded feeds count their
// inline entries too ("8 + 77" is 85).
const std::map<std::string, int> kEntries = {
    {"ODataJClient__Customer.xml", 2},
    {"azure-storage-python__test_storage_table.test_batch_inserts__resp2.xml", 100},
    {"azure-storage-python__test_storage_table.test_query_entities__resp3.xml", 2},
    {"odata4j__SystemQueryOptionExpand1Test.xml", 8 + 77},
    {"odata4j__SystemQueryOptionOrderByTopTest.xml", 5},
    {"odata4j__issue186_netflix_titles.xml", 1},
    {"olingo-odata2__LargeEmployeeFeed.xml", 432},
    {"olingo-odata2__ProductsFeed.xml", 9 + 9},
};

// A walk_dom "binder" that counts Atom entries at any depth.
struct EntryCounter {
  int entries = 0;
  bool start(std::string_view uri, std::string_view local) {
    if (uri == xml::kAtomNs && local == "entry") ++entries;
    return true;
  }
  bool wants_attributes() const { return false; }
  bool may_use_attribute(std::string_view) const { return false; }
  void attribute(std::string_view, std::string_view, std::string_view) {}
  void text(std::string_view) {}
  void end() {}
};

// The counts check the corpus, not a codec, so this uses pugixml directly
// (with the pugixml decoder's namespace resolution) instead of a registry
// decoder: binding entries of any entity type needs a generic dataset that
// the model does not have.
// The one test that runs without the corpus: it skips with the line that
// says what was skipped and how to run it.
TEST(RealAtomCorpus, EntryCountsMatchSources) {
  if (!real_corpus().dir) GTEST_SKIP() << real_corpus().skip_line;
  ASSERT_TRUE(real_dir_exists("atom"));
  std::map<std::string, int> seen;
  for (const RealFile& f : load_dir("atom")) {
    pugi::xml_document doc;
    const pugi::xml_parse_result r = doc.load_buffer(f.bytes.data(), f.bytes.size());
    ASSERT_TRUE(r) << f.name << ": " << r.description() << " at byte " << r.offset;
    xml::PugiPolicy policy;
    EntryCounter counter;
    xml::walk_dom(policy, doc.document_element(), counter);
    seen[f.name] = counter.entries;
  }
  for (const auto& [name, expected] : kEntries) {
    const auto it = seen.find(name);
    if (it == seen.end())
      ADD_FAILURE() << name << " (listed in SOURCES.md) is not in " << real_dir("atom");
    else
      EXPECT_EQ(it->second, expected) << name;
  }
  for (const auto& [name, count] : seen)
    EXPECT_TRUE(kEntries.contains(name)) << name << " (" << count << " entries) has no count here";
}

// ------------------------------------------------------------ entity rows
// Entities per JSON light file (SOURCES.md). ComputerDetail is a single
// entity, not a feed: the entity dataset is a feed's rows, so it is rejected
// (-1 here), as the typed datasets reject a payload without "value".
const std::map<std::string, int> kJsonEntities = {
    {"ODataJClient__ComputerDetail_-10.json", -1},
    {"ODataJClient__Customer.json", 2},
    {"azure-storage-python__test_table_batch.test_batch_inserts__resp1.json", 100},
    {"azure-storage-python__test_table_entity.test_query_entities_full_metadata__resp2.json", 2},
    {"azure-storage-python__test_table_entity.test_query_entities_no_metadata__resp2.json", 2},
};

// Every row has properties: a decoder that found the entries but none of
// their m:properties / members would still count right.
class RealEntities : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(RealEntities, EveryFileGivesTheEntryCountOfSources) {
  const CodecEntry& d = *GetParam().decoder;
  const std::string_view dir = d.format == "atom" ? "atom" : "odata-json-light";
  const std::map<std::string, int>& expected = d.format == "atom" ? kEntries : kJsonEntities;
  ASSERT_TRUE(real_dir_exists(dir));
  auto decoder = d.make_decoder();
  for (const RealFile& f : load_dir(dir)) {
    SCOPED_TRACE(f.name);
    const auto want = expected.find(f.name);
    ASSERT_NE(want, expected.end()) << "no count for this file here";
    const std::string padded = padded_copy(f.bytes);
    Records out = empty_records(DatasetKind::entity);
    try {
      decoder->decode(std::string_view(padded.data(), f.bytes.size()), out);
    } catch (const DecodeError& e) {
      EXPECT_EQ(want->second, -1) << e.describe();
      continue;
    }
    const auto& rows = std::get<std::vector<EntityRow>>(out);
    EXPECT_EQ(static_cast<int>(rows.size()), want->second);
    for (std::size_t i = 0; i < rows.size(); ++i)
      EXPECT_FALSE(rows[i].Properties.empty()) << "row " << i << " has no properties";
  }
}

std::vector<DecoderCase> entity_decoders() {
  std::vector<DecoderCase> out = decoder_cases("atom");
  for (const DecoderCase& c : decoder_cases("json")) out.push_back(c);
  return with_corpus(out);
}

INSTANTIATE_TEST_SUITE_P(Registry, RealEntities, ::testing::ValuesIn(entity_decoders()),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RealEntities);

}  // namespace
}  // namespace wb::test
