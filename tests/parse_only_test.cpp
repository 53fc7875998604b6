// parse_only is what a parse-only benchmark times: the baseline of every
// "decode + bind against parse-only" ratio. It must check what the decoder's
// parse checks, or the ratio bills the binding for the parse's own work (and
// the parse-only figure is of a laxer parser than the one decoding).
// For every XML decoder and every malformed/xml fixture (a well-formedness
// error in an otherwise valid Atom message feed), parse_only rejects when
// decode rejects.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// Errors only the binding finds: a decoder over a parser without namespace
// support (pugixml, RapidXML, TinyXML-2, Mini-XML) resolves prefixes while
// binding (prefix_scope.hpp), and a bare parse does not bind.
bool found_by_the_walk(const CodecEntry& codec, const std::string& stem) {
  return stem == "n_undeclared_prefix" &&
         has_label(codec.labels, "namespaces resolved by the adapter");
}

bool rejects(const std::function<void()>& run) {
  try {
    run();
  } catch (const DecodeError&) {
    return true;
  }
  return false;
}

class ParseOnly : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(ParseOnly, RejectsWhatDecodeRejectsInMalformedXml) {
  const CodecEntry& codec = *GetParam().decoder;
  int compared = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(source_dir() / "fixtures" / "malformed" / "xml")) {
    const std::string stem = entry.path().stem().string();
    if (!stem.starts_with("n_")) continue;
    const std::string padded = padded_copy(read_file(entry.path()));
    auto decoder = codec.make_decoder();
    Records rows = empty_records(DatasetKind::message);
    const bool decode_rejects = rejects([&] { decoder->decode(padded, rows); });
    const bool parse_rejects = rejects([&] { codec.make_decoder()->parse_only(padded); });
    ++compared;
    if (decode_rejects && !parse_rejects && !found_by_the_walk(codec, stem))
      ADD_FAILURE() << codec.library << ": decode rejects " << stem << ", parse_only accepts it";
    if (found_by_the_walk(codec, stem) && (parse_rejects || !decode_rejects))
      ADD_FAILURE() << codec.library << ": " << stem
                    << " is listed as found by the walk only; parse_only now "
                    << (parse_rejects ? "rejects it" : "and decode accept it");
  }
  EXPECT_GT(compared, 20);
}

INSTANTIATE_TEST_SUITE_P(Registry, ParseOnly, ::testing::ValuesIn(decoder_cases("atom")),
                         decoder_case_name);
// A build with every atom library left out has no case here.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParseOnly);

// The other direction, for JSON: what decode accepts, parse_only must accept
// (the fuzz targets check it on every input). simdjson On-Demand's decode
// reads an integer beyond 64 bits in a double member with get_double(), which
// get_number() refuses, so parse_only's walk must fall back the same way.
class JsonParseOnly : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(JsonParseOnly, AcceptsWhatDecodeAccepts) {
  const CodecEntry& codec = *GetParam().decoder;
  const std::string big = "-99999999999999999999999999999999999999999999999999999999945";
  for (const std::string& doc :
       {R"({"value":[{"Contacts":[],"Latitude":)" + big + R"(,"Longitude":1,"Name":"N"}]})",
        R"({"odata.metadata":)" + big + R"(,"value":[{"Contacts":[],"Latitude":1,"Name":"N"}]})",
        std::string(R"({"value":[{"Contacts":[],"Latitude":0.)") + std::string(30, '0') +
            R"(1,"Longitude":1e-400,"Name":"N"}]})"}) {
    SCOPED_TRACE(doc);
    const std::string padded = padded_copy(doc);
    Records rows = empty_records(DatasetKind::airport);
    if (rejects([&] { codec.make_decoder()->decode(padded, rows); })) continue;
    EXPECT_FALSE(rejects([&] { codec.make_decoder()->parse_only(padded); }))
        << codec.library << ": decode accepts it, parse_only rejects it";
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, JsonParseOnly, ::testing::ValuesIn(decoder_cases("json")),
                         decoder_case_name);

}  // namespace
}  // namespace wb::test
