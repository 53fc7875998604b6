// The canonical form every JSON and XML parser gives of what it parsed
// (Decoder::canonical; codecs/json/canonical.hpp, codecs/xml/canonical.hpp)
// and the verdict's comparison of it (`wirebench_cli verdict`): every parser's
// form of a generated document equals the reference, and the documents that
// parsers read differently (a lone surrogate, 1e400, a duplicate name) get
// the marks docs/payload.md reports.
#include <nlohmann/json.hpp>
#include <set>

#include "codecs/json/canonical.hpp"
#include "codecs/json/write_feed.hpp"
#include "codecs/registry.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// The canonical form of records written as an OData JSON light feed, made
// from the model through write_feed: no parser involved.
std::string reference_form(const Records& records) {
  std::string out;
  json::CanonicalJson sink(out);
  std::visit([&](const auto& rows) { json::write_feed(sink, rows, json::Envelope{}); }, records);
  return out;
}

std::string canonical_of(const CodecEntry& codec, const std::string& document) {
  const std::string input = padded_copy(document);
  std::string out;
  EXPECT_TRUE(
      codec.make_decoder()->canonical(std::string_view(input).substr(0, document.size()), out))
      << codec.library;
  return out;
}

TEST(CanonicalForm, EveryJsonParserGivesTheReferenceOfAGeneratedFeed) {
  const Records rows = generate(DatasetKind::message, 50);
  const std::string want = reference_form(rows);
  ASSERT_NE(want.find("My Message No. 49"), std::string::npos);
  // Every writer's text: the values do not depend on how they were spelled.
  for (const CodecEntry* encoder : codecs_of("json", Role::encode)) {
    const std::string document = encode(*encoder, rows);
    for (const CodecEntry* codec : codecs_of("json", Role::decode))
      EXPECT_EQ(canonical_of(*codec, document), want)
          << codec->library << " from " << encoder->library;
  }
}

TEST(CanonicalForm, EveryJsonParserWritesValuesTheOneWay) {
  const std::string document = R"({"b":[1,-2,1.5,0.25,1e22,"x\u00e9\"\\\n",true,false,null,{},[]],)"
                               R"("a":{"z":[[]],"y":{"k":"v"}}})";
  const std::string want =
      "{\"a\":{\"y\":{\"k\":\"v\"},\"z\":[[]]},"
      "\"b\":[1,-2,1.5,0.25,1e+22,\"x\xC3\xA9\\\"\\\\\\n\",true,false,null,{},[]]}";
  for (const CodecEntry* codec : codecs_of("json", Role::decode))
    EXPECT_EQ(canonical_of(*codec, document), want) << codec->library;
  // A scalar root, and ill-formed UTF-8 made visible.
  for (const CodecEntry* codec : codecs_of("json", Role::decode))
    EXPECT_EQ(canonical_of(*codec, "7"), "7") << codec->library;
  std::string visible;
  json::append_canonical_string(visible, "a\xED\xA0\x80z");
  EXPECT_EQ(visible, "\"a\\xed\\xa0\\x80z\"");
}

TEST(CanonicalForm, EveryXmlParserWritesTheInfosetTheOneWay) {
  const std::string document =
      "<?xml version=\"1.0\"?>\n<!-- c --><a:r xmlns:a=\"urn:x\" xmlns=\"urn:d\" z=\"1\" "
      "a:y=\"&lt;2\"><b>t&amp;x<![CDATA[<c>]]></b><c/><a:d xmlns:a=\"urn:other\">caf\xC3\xA9</a:d>"
      "</a:r>";
  const std::string want =
      "<{urn:x}r z=\"1\" "
      "{urn:x}y=\"&lt;2\"><{urn:d}b>t&amp;x&lt;c&gt;</{urn:d}b><{urn:d}c></{urn:d}c>"
      "<{urn:other}d>caf\xC3\xA9</{urn:other}d></{urn:x}r>";
  for (const CodecEntry* codec : codecs_of("atom", Role::decode))
    EXPECT_EQ(canonical_of(*codec, document), want) << codec->library;
}

TEST(CanonicalForm, EveryXmlParserAgreesOnAGeneratedFeed) {
  const std::string document = encode(primary_encoder("atom"), generate(DatasetKind::airport, 20));
  const auto decoders = codecs_of("atom", Role::decode);
  ASSERT_FALSE(decoders.empty());
  const std::string want = canonical_of(*decoders.front(), document);
  EXPECT_NE(want.find("<{http://www.w3.org/2005/Atom}feed"), std::string::npos) << want;
  for (const CodecEntry* codec : decoders)
    EXPECT_EQ(canonical_of(*codec, document), want) << codec->library;
}

// The verdict takes a file the canonical form's parse accepts as accepted,
// without running parse_only: the two must agree on every case of the
// project's conformance corpus (a form too deep to write is no answer).
TEST(CanonicalForm, AcceptsWhatParseOnlyAcceptsOverTheConformanceCorpus) {
  std::vector<std::string> documents;
  for (const auto& entry :
       std::filesystem::directory_iterator(source_dir() / "fixtures" / "conformance" / "json"))
    if (entry.path().extension() == ".json") documents.push_back(read_file(entry.path()));
  ASSERT_GT(documents.size(), 600u);
  for (const CodecEntry* codec : codecs_of("json", Role::decode)) {
    auto decoder = codec->make_decoder();
    for (const std::string& document : documents) {
      const std::string input = padded_copy(document);
      const std::string_view view = std::string_view(input).substr(0, document.size());
      bool parsed = true, formed = true;
      try {
        decoder->parse_only(view);
      } catch (const DecodeError&) {
        parsed = false;
      }
      std::string out;
      try {
        decoder->canonical(view, out);
      } catch (const DecodeError&) {
        formed = false;
      } catch (const std::length_error&) {
        continue;
      }
      EXPECT_EQ(formed, parsed) << codec->library << ": " << document.substr(0, 60);
    }
  }
}

TEST(CanonicalForm, BinaryFormatsHaveNone) {
  for (const CodecEntry* codec : codecs_of("protobuf", Role::decode)) {
    std::string out = "x";
    EXPECT_FALSE(codec->make_decoder()->canonical("", out)) << codec->library;
    EXPECT_EQ(out, "");
  }
}

// The parse-only verdicts of one JSON document, by library.
std::map<std::string, nlohmann::json> verdicts_of(const std::string& document) {
  TempFile file(".json"), out(".json");
  write_file(file.path(), document);
  const RunResult r =
      run({WB_CLI_EXE, "verdict", "--json", out.path().string(), "json:" + file.path().string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, nlohmann::json> by_library;
  const nlohmann::json verdict = nlohmann::json::parse(read_file(out.path()));
  for (const auto& v : verdict["files"][0]["verdicts"])
    by_library[v["library"].get<std::string>()] = v;
  return by_library;
}

bool reads_differently(const nlohmann::json& v) {
  return v["mark"].get<std::string>().find("reads it differently") != std::string::npos;
}

// Each accepting parser's values are one of the answers allowed; a parser
// whose answer is not the most common one is marked, and its mark quotes
// both forms. Returns how many parsers gave each answer.
std::map<std::string, int> check_marks(const std::string& document,
                                       const std::set<std::string>& allowed) {
  std::map<std::string, int> answers;
  const auto verdicts = verdicts_of(document);
  for (const auto& [library, v] : verdicts) {
    EXPECT_NE(v["verdict"], "crashed") << library;
    if (v["verdict"] == "accepted") ++answers[v["values"].get<std::string>()];
  }
  int most = 0;
  for (const auto& [values, n] : answers) most = std::max(most, n);
  const bool tie = std::count_if(answers.begin(), answers.end(),
                                 [&](const auto& a) { return a.second == most; }) > 1;
  for (const auto& [library, v] : verdicts) {
    if (v["verdict"] != "accepted") continue;
    const std::string values = v["values"];
    EXPECT_TRUE(allowed.count(values)) << library << ": " << values;
    const bool minority = answers[values] < most || tie;
    EXPECT_EQ(reads_differently(v), minority) << library << ": " << v["mark"];
    if (minority) {
      EXPECT_NE(v["mark"].get<std::string>().find(values), std::string::npos);
    }
  }
  return answers;
}

TEST(VerdictValues, LoneSurrogateShowsWhatEachAccepterMadeOfIt) {
  // U+FFFD, '?', or the surrogate's three bytes kept (shown as \xNN).
  const auto answers =
      check_marks(R"(["\ud800"])", {"[\"\xEF\xBF\xBD\"]", "[\"?\"]", "[\"\\xed\\xa0\\x80\"]"});
  if (!left_out_codecs().empty()) GTEST_SKIP() << "a library is left out of this build";
  // Measured: json-c makes U+FFFD of it, yajl '?'; every other parser rejects it.
  EXPECT_EQ(answers, (std::map<std::string, int>{{"[\"\xEF\xBF\xBD\"]", 1}, {"[\"?\"]", 1}}));
}

TEST(VerdictValues, NumberBeyondDoubleRangeReadsAsInfinityOrIsRejected) {
  const auto answers = check_marks("[1e400]", {"[inf]"});
  if (!left_out_codecs().empty()) GTEST_SKIP() << "a library is left out of this build";
  EXPECT_EQ(answers, (std::map<std::string, int>{{"[inf]", 4}}));
}

TEST(VerdictValues, DuplicateNameKeepsTheLastOrBoth) {
  const auto answers =
      check_marks(R"({"a":1,"a":2})", {R"({"a":1,"a":2})", R"({"a":2})", R"({"a":1})"});
  if (!left_out_codecs().empty()) GTEST_SKIP() << "a library is left out of this build";
  EXPECT_EQ(answers, (std::map<std::string, int>{{R"({"a":1,"a":2})", 11}, {R"({"a":2})", 5}}));
}

}  // namespace
}  // namespace wb::test
