// Real payloads from other stacks (corpus/real/ under WIREBENCH_CORPUS, see
// its SOURCES.md) through every atom and soap decoder's parse_only, and the
// entry counts SOURCES.md states for the Atom and JSON light files from every
// atom/json decoder binding the files as the generic entity dataset (and from
// a plain pugixml walk: pugixml_real_counts_test.cpp). Without the variable
// the parameterized suites are not instantiated and RealAtomCorpus says once
// what was skipped.
#include <map>

#include "tests/real_corpus.hpp"

namespace wb::test {
namespace {

// Decoder cases only with the corpus: without it the suites have no tests.
std::vector<DecoderCase> with_corpus(std::vector<DecoderCase> cases) {
  return real_corpus().dir ? cases : std::vector<DecoderCase>{};
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
