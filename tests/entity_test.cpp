// The generic entity dataset (codecs/common/entity.hpp): hand-written JSON
// light and Atom spellings that every decoder of the format must bind to the
// same properties (type annotations, inferred types, nulls, nested values,
// inline entries), and formats that do not define it rejecting it.
#include "codecs/common/entity.hpp"
#include "tests/entity_rows.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

void expect_entities(const CodecEntry& d, std::string_view payload, const Records& expected) {
  SCOPED_TRACE(std::string("payload: ") + std::string(payload));
  try {
    // An inexact decoder (registry.def) may miss a double by an ulp.
    EXPECT_TRUE(same_records(expected, decode(d, payload, DatasetKind::entity), d.exact));
  } catch (const DecodeError& e) {
    ADD_FAILURE() << "rejected: " << e.describe();
  }
}

// ------------------------------------------------------------------ json
class JsonEntities : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(JsonEntities, TypeAnnotationsBeforeOrAfterTheirPropertyGiveTheType) {
  expect_entities(*GetParam().decoder,
                  R"({"odata.metadata":"http://x/$metadata#T","value":[)"
                  R"({"odata.etag":"W/\"1\"","A@odata.type":"Edm.Int64","A":"12",)"
                  R"("B":"2017-10-02T20:24:07Z","B@odata.type":"Edm.DateTime",)"
                  R"("C":3,"C@odata.type":"Edm.Double","N@odata.navigationLinkUrl":"T(1)/N"}]})",
                  rows({{{"A", "Edm.Int64", "12"},
                         {"B", "Edm.DateTime", "2017-10-02T20:24:07Z"},
                         {"C", "Edm.Double", "3"}}}));
}

// cJSON keeps no number type: its whole 1E+2 is an integer.
TEST_P(JsonEntities, TypesAreInferredFromJsonValuesWithoutAnnotations) {
  const bool cjson = GetParam().decoder->library == "cjson";
  expect_entities(
      *GetParam().decoder,
      R"({"value":[{"s":"x","i":-7,"l":3000000000,"d":2.50,"e":1E+2,"t":true,"f":false,)"
      R"("z":null,"o":{"a":[1, "b", null, {}]},"c":[]}, {}]})",
      rows({{{"s", "Edm.String", "x"},
             {"i", "Edm.Int32", "-7"},
             {"l", "Edm.Int64", "3000000000"},
             {"d", "Edm.Double", "2.5"},
             {"e", cjson ? "Edm.Int32" : "Edm.Double", "100"},
             {"t", "Edm.Boolean", "true"},
             {"f", "Edm.Boolean", "false"},
             {"z", "Null(Edm.String)", ""},
             {"o", "Complex", R"({"a":[1,"b",null,{}]})"},
             {"c", "Collection", "[]"}},
            {}}));
}

TEST_P(JsonEntities, AnnotatedNullKeepsItsTypeInsideNull) {
  expect_entities(
      *GetParam().decoder,
      R"({"value":[{"n@odata.type":"Edm.Guid","n":null,)"
      R"x("m@odata.type":"Collection(Edm.String)","m":["a"]}]})x",
      rows({{{"n", "Null(Edm.Guid)", ""}, {"m", "Collection(Edm.String)", R"(["a"])"}}}));
}

TEST_P(JsonEntities, NonStringTypeAnnotationOrNoFeedIsRejected) {
  for (std::string_view bad : {R"({"value":[{"a@odata.type":5,"a":1}]})",
                               R"({"odata.metadata":"x","a":1})", R"({"value":[1]})"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(decode(*GetParam().decoder, bad, DatasetKind::entity), DecodeError);
  }
}

// nlohmann's and Boost.JSON's object models keep one member per name; every
// decoder reads a repeated name as they do (entity.hpp): first place, last
// value, among the properties and inside nested values. The streaming
// decoders see every occurrence and must merge them the same way.
TEST_P(JsonEntities, RepeatedNamesKeepTheFirstPlaceAndTheLastValue) {
  // JsonCpp keeps one member per name too, but orders by name: its adapter
  // restores the order of the text from the kept (last) value's offset.
  if (GetParam().decoder->library == "jsoncpp")
    return expect_entities(*GetParam().decoder,
                           R"({"value":[{"Z":1,"A":"x","Z":"3","Z@odata.type":"Edm.Int64",)"
                           R"("C":{"z":1,"a":[{"b":1,"b":{"c":2,"c":3}}],"z":true}}]})",
                           rows({{{"A", "Edm.String", "x"},
                                  {"Z", "Edm.Int64", "3"},
                                  {"C", "Complex", R"({"a":[{"b":{"c":3}}],"z":true})"}}}));
  expect_entities(*GetParam().decoder,
                  R"({"value":[{"Z":1,"A":"x","Z":"3","Z@odata.type":"Edm.Int64",)"
                  R"("C":{"z":1,"a":[{"b":1,"b":{"c":2,"c":3}}],"z":true}}]})",
                  rows({{{"Z", "Edm.Int64", "3"},
                         {"A", "Edm.String", "x"},
                         {"C", "Complex", R"({"z":true,"a":[{"b":{"c":3}}]})"}}}));
}

// simdjson 3.0.1's On-Demand get_number() reads a float of more than 19
// digits as 0.
TEST_P(JsonEntities, FloatsOfManyDigitsReadAsDoubles) {
  expect_entities(*GetParam().decoder,
                  R"({"value":[{"A":999999999999999999999999999999999999999.9,)"
                  R"("B":[99999999999999999999.5]}]})",
                  rows({{{"A", "Edm.Double", "1e+39"}, {"B", "Collection", "[1e+20]"}}}));
}

// An integer beyond 64 bits is a double, as the object models read it.
// simdjson's DOM parser refuses the document (simdjson 3.0.1 has no big
// integers), and so do Jansson, Poco and json-c (whose adapter rejects the
// value its library saturates); simdjson's On-Demand adapter, whose integer
// getters fail on it, must read the property as a double, as its typed
// members do.
TEST_P(JsonEntities, IntegersBeyond64BitsReadAsDoubles) {
  const std::string_view payload =
      R"({"value":[{"A":123456789012345678901234567890,"B":[-99999999999999999999]}]})";
  const CodecEntry& d = *GetParam().decoder;
  if (d.library == "simdjson-dom" || d.library == "jansson" || d.library == "poco" ||
      d.library == "json-c") {
    EXPECT_THROW(decode(d, payload, DatasetKind::entity), DecodeError);
    return;
  }
  expect_entities(
      d, payload,
      rows({{{"A", "Edm.Double", "1.2345678901234568e+29"}, {"B", "Collection", "[-1e+20]"}}}));
}

TEST_P(JsonEntities, NestedValuesDeeperThanTheLimitAreRejected) {
  const auto nested = [](int depth) {
    return R"({"value":[{"C":)" + std::string(depth, '[') + std::string(depth, ']') + "}]}";
  };
  const CodecEntry& d = *GetParam().decoder;
  EXPECT_NO_THROW(decode(d, nested(entity::kMaxNestedDepth), DatasetKind::entity));
  EXPECT_THROW(decode(d, nested(entity::kMaxNestedDepth + 1), DatasetKind::entity), DecodeError);
}

INSTANTIATE_TEST_SUITE_P(Registry, JsonEntities, ::testing::ValuesIn(decoder_cases("json")),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(JsonEntities);

// ------------------------------------------------------------------ atom
constexpr std::string_view kFeedStart =
    R"(<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" )"
    R"(xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" )"
    R"(xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><title>T</title>)";

class AtomEntities : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(AtomEntities, TypesNullsNestedValuesAndInlineEntries) {
  const std::string payload =
      std::string(kFeedStart) +
      // an entry expanding a feed of one entry before its own properties
      R"(<entry><id>1</id><link rel="x"><m:inline><feed><entry><content type="application/xml">)"
      R"(<m:properties><d:ID m:type="Edm.Int32">7</d:ID></m:properties></content></entry>)"
      R"(</feed></m:inline></link><content type="application/xml"><m:properties>)"
      R"(<d:Name>a &amp; <![CDATA[<b>]]></d:Name><d:Empty></d:Empty>)"
      R"(<d:Rating m:type="Edm.Int32" m:null="true"/><d:Note m:null="true"/>)"
      R"(<d:Address m:type="NS.Address"><d:City>R</d:City><d:Zip m:null="true"/>)"
      R"x(<d:Tags m:type="Collection(Edm.String)"><d:element>x</d:element>)x"
      R"(<d:element>y</d:element>)"
      R"(</d:Tags></d:Address><x:Other xmlns:x="urn:other">skipped</x:Other>)"
      R"(</m:properties></content></entry>)"
      // a media-link entry: m:properties beside content
      R"(<entry><content type="image/png" src="p.png"/><m:properties>)"
      R"(<d:Size m:type="Edm.Int64">9</d:Size></m:properties></entry></feed>)";
  expect_entities(*GetParam().decoder, payload,
                  rows({{{"Name", "Edm.String", "a & <b>"},
                         {"Empty", "Edm.String", ""},
                         {"Rating", "Null(Edm.Int32)", ""},
                         {"Note", "Null(Edm.String)", ""},
                         {"Address", "NS.Address", R"({"City":"R","Zip":null,"Tags":["x","y"]})"}},
                        {{"ID", "Edm.Int32", "7"}},
                        {{"Size", "Edm.Int64", "9"}}}));
}

TEST_P(AtomEntities, SingleEntryIsOneRowAndOtherRootsAreRejected) {
  expect_entities(*GetParam().decoder,
                  R"(<entry xmlns="http://www.w3.org/2005/Atom" )"
                  R"(xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" )"
                  R"(xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">)"
                  R"(<content><m:properties><d:A>1</d:A></m:properties></content></entry>)",
                  rows({{{"A", "Edm.String", "1"}}}));
  EXPECT_THROW(decode(*GetParam().decoder, "<feedx/>", DatasetKind::entity), DecodeError);
  EXPECT_THROW(
      decode(*GetParam().decoder, std::string(kFeedStart) + "<entry>", DatasetKind::entity),
      DecodeError);
}

TEST_P(AtomEntities, RepeatedNamesKeepTheFirstPlaceAndTheLastValue) {
  expect_entities(*GetParam().decoder,
                  std::string(kFeedStart) +
                      R"(<entry><content><m:properties><d:Z>1</d:Z><d:A>x</d:A>)"
                      R"(<d:Z m:type="Edm.Int32">3</d:Z><d:C><d:z>1</d:z><d:a>2</d:a>)"
                      R"(<d:z>3</d:z></d:C></m:properties></content></entry></feed>)",
                  rows({{{"Z", "Edm.Int32", "3"},
                         {"A", "Edm.String", "x"},
                         {"C", "Complex", R"({"z":"3","a":"2"})"}}}));
}

INSTANTIATE_TEST_SUITE_P(Registry, AtomEntities, ::testing::ValuesIn(decoder_cases("atom")),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AtomEntities);

// ------------------------------------------------ formats without entity
// DatasetInfo::formats and the adapters' kEntityRows opt-in must agree.
TEST(EntityDataset, OnlyTheFormatsThatDefineItTakeIt) {
  const DatasetInfo& info = dataset_info(DatasetKind::entity);
  const Records sample = generate(DatasetKind::entity, 3);
  for (const CodecEntry& c : codecs()) {
    SCOPED_TRACE(std::string(c.format) + " " + std::string(c.library));
    const bool defined = defined_for(info, c.format);
    if (c.role == Role::encode) {
      // An encoder labelled "no entity rows" refuses them as if undefined.
      if (defined && !writes_dataset(c, DatasetKind::entity)) {
        std::string out;
        EXPECT_THROW(c.make_encoder()->encode(sample, out), std::invalid_argument);
        continue;
      }
      std::string out;
      if (defined)
        EXPECT_NO_THROW(c.make_encoder()->encode(sample, out));
      else
        EXPECT_THROW(c.make_encoder()->encode(sample, out), std::invalid_argument);
      continue;
    }
    // Any payload: a defining decoder may reject it as a non-feed, but an
    // undefined one must say the dataset is not defined.
    try {
      decode(c, "{\"value\":[]}", DatasetKind::entity);
      EXPECT_TRUE(defined) << "decoded entity rows";
    } catch (const DecodeError& e) {
      const bool not_defined = std::string(e.what()) == kNoEntityRows;
      EXPECT_EQ(not_defined, !defined) << e.describe();
    }
  }
}

}  // namespace
}  // namespace wb::test
