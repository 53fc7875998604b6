// Real OData JSON feeds from other stacks (WCF Data Services, ASP.NET Web API
// OData, RESTier, Azure), kept outside the tree: $WIREBENCH_CORPUS names a
// folder holding corpus/odata/, with a SOURCES.md saying where each came from
// and a NAME.rows beside each NAME.json giving its entity count. Each payload
// is a test: every decoder of its dialect's format (v1 and v2: json-verbose,
// v3: json, v4: json-v4; the name's prefix says which) reads it as the
// generic entity dataset, with that many rows, none empty.
#include <algorithm>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

const ExternalCorpus& odata_corpus() {
  static const ExternalCorpus c = external_corpus("corpus/odata", "the real OData feeds");
  return c;
}
std::filesystem::path corpus_dir() {
  return odata_corpus().dir.value_or("");
}

constexpr std::string_view kUnset = "(WIREBENCH_CORPUS unset)";

// The payloads' names, or one placeholder that skips when there is no corpus
// (and fails when the variable names a folder without them).
std::vector<std::string> payload_names() {
  const std::filesystem::path dir = corpus_dir();
  std::vector<std::string> out;
  std::error_code ec;
  if (!dir.empty() && std::filesystem::is_directory(dir, ec))
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  if (out.empty()) out.emplace_back(kUnset);
  return out;
}

std::string_view format_of(std::string_view name) {
  if (name.starts_with("v1-") || name.starts_with("v2-")) return "json-verbose";
  if (name.starts_with("v4-")) return "json-v4";
  return "json";
}

class OdataCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(OdataCorpus, EveryDecoderOfItsDialectReadsItsRows) {
  if (GetParam() == kUnset) {
    if (corpus_dir().empty()) GTEST_SKIP() << odata_corpus().skip_line;
    FAIL() << "no .json payloads in " << corpus_dir();
  }
  const std::filesystem::path json = corpus_dir() / GetParam();
  std::filesystem::path rows_file = json;
  rows_file.replace_extension(".rows");
  const std::string bytes = read_file(json);
  const int want = std::stoi(read_file(rows_file));
  const std::string padded = padded_copy(bytes);
  const auto decoders = codecs_of(format_of(GetParam()), Role::decode);
  ASSERT_FALSE(decoders.empty());
  for (const CodecEntry* c : decoders) {
    SCOPED_TRACE(std::string(c->format) + " " + std::string(c->library));
    Records out = empty_records(DatasetKind::entity);
    try {
      c->make_decoder()->decode(std::string_view(padded.data(), bytes.size()), out);
    } catch (const DecodeError& e) {
      ADD_FAILURE() << e.describe();
      continue;
    }
    const auto& rows = std::get<std::vector<EntityRow>>(out);
    EXPECT_EQ(static_cast<int>(rows.size()), want);
    for (std::size_t i = 0; i < rows.size(); ++i)
      EXPECT_FALSE(rows[i].Properties.empty()) << "row " << i << " has no properties";
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, OdataCorpus, ::testing::ValuesIn(payload_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return gtest_name(info.param == kUnset ? "unset" : info.param);
                         });

}  // namespace
}  // namespace wb::test
