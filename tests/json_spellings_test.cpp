// Hand-written OData JSON light payloads that every JSON decoder must read the
// same way (any member order, any whitespace, every escape, every number
// spelling, annotations), and malformed ones it must reject with DecodeError.
#include <cmath>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// What a library accepts that RejectsMalformedText rejects, measured; the
// same leniencies are in tests/hostile_test.cpp's known_lenient() and
// docs/findings.md. A listed case that starts to be rejected fails, so that
// the list stays true.
struct Leniency {
  std::string_view library, why;
};
constexpr Leniency kLenient[] = {
    // cJSON checks neither UTF-8 nor control characters, skips every byte
    // up to the space as white space, and reads numbers with strtod.
    {"cjson", "invalid UTF-8"},
    {"cjson", "raw control character"},
    {"cjson", "a control byte before an unknown member's value"},
    {"cjson", "a bad number in an annotation"},
    // JsonCpp checks no UTF-8 and no control characters, and its strict
    // mode still reads a number with a leading zero.
    {"jsoncpp", "invalid UTF-8"},
    {"jsoncpp", "raw control character"},
    {"jsoncpp", "a bad number in an annotation"},
    // json-c's strict mode takes single-quoted names and raw control
    // characters; a lone surrogate escape reads as U+FFFD in json-c and as
    // "?" in YAJL.
    {"json-c", "single quotes"},
    {"json-c", "raw control character"},
    {"json-c", "lone surrogate"},
    {"yajl", "lone surrogate"},
};
bool lenient(std::string_view library, std::string_view why) {
  for (const Leniency& l : kLenient)
    if (l.library == library && l.why == why) return true;
  return false;
}

constexpr std::string_view kMeta = R"("odata.metadata":"http://x/$metadata#Messages")";

std::string feed(std::string_view rows) {
  return "{" + std::string(kMeta) + R"(,"value":[)" + std::string(rows) + "]}";
}

Records messages(std::vector<Message> rows) {
  return rows;
}

class JsonSpellings : public ::testing::TestWithParam<DecoderCase> {
 protected:
  const CodecEntry& decoder() const { return *GetParam().decoder; }

  void expect_decodes(std::string_view payload, const Records& expected) {
    SCOPED_TRACE(std::string("payload: ") + std::string(payload));
    try {
      const Records got = decode(decoder(), payload, dataset_of(expected));
      EXPECT_TRUE(same_records(expected, got, decoder().exact));
    } catch (const DecodeError& e) {
      ADD_FAILURE() << "rejected: " << e.describe();
    }
  }

  void expect_rejects(std::string_view why, std::string_view payload,
                      DatasetKind kind = DatasetKind::message) {
    SCOPED_TRACE(std::string(why) + ": " + std::string(payload));
    try {
      const Records got = decode(decoder(), payload, kind);
      if (!lenient(decoder().library, why))
        ADD_FAILURE() << "accepted, " << row_count(got) << " rows";
    } catch (const DecodeError& e) {
      if (lenient(decoder().library, why))
        ADD_FAILURE() << "listed in kLenient but rejected: " << e.describe();
      EXPECT_STRNE(e.what(), "") << "DecodeError without a message";
    } catch (const std::exception& e) {
      ADD_FAILURE() << "threw " << typeid(e).name() << " instead of DecodeError: " << e.what();
    }
  }
};

TEST_P(JsonSpellings, AnyMemberOrder) {
  expect_decodes(R"({"value":[{"MessageText":"x","ID":3}],)" + std::string(kMeta) + "}",
                 messages({{3, "x"}}));
  const std::vector<Airport> airport = {{{{"F", "L"}, {"G", "M"}}, -1.25, 2.5, "N"}};
  expect_decodes(
      R"({"value":[{"Name":"N","Longitude":2.5,"Latitude":-1.25,)"
      R"("Contacts":[{"LastName":"L","FirstName":"F"},{"FirstName":"G","LastName":"M"}]}]})",
      airport);
  expect_decodes(R"({"value":[]})", messages({}));
}

TEST_P(JsonSpellings, WhitespaceEverywhere) {
  const std::string ws = " \t\r\n";
  const std::string payload = ws + "{" + ws + R"("value")" + ws + ":" + ws + "[" + ws + "{" + ws +
                              R"("ID")" + ws + ":" + ws + "7" + ws + "," + ws + R"("MessageText")" +
                              ws + ":" + ws + R"("a b")" + ws + "}" + ws + "," + ws +
                              R"({"ID":8,"MessageText":""})" + ws + "]" + ws + "}" + ws;
  expect_decodes(payload, messages({{7, "a b"}, {8, ""}}));
}

TEST_P(JsonSpellings, Escapes) {
  expect_decodes(
      feed(R"({"ID":1,"MessageText":"q\" b\\ s\/ n\n t\t r\r b\b f\f u\u0041\u00e9\u00E9"})"),
      messages({{1, "q\" b\\ s/ n\n t\t r\r b\b f\f uA\xC3\xA9\xC3\xA9"}}));
  // A surrogate pair is one character outside the BMP: 4 bytes of UTF-8.
  expect_decodes(feed(R"({"ID":2,"MessageText":"g\ud834\udd1e \u20ac"})"),
                 messages({{2, "g\xF0\x9D\x84\x9E \xE2\x82\xAC"}}));
  // Raw UTF-8 passes through unchanged.
  expect_decodes(feed("{\"ID\":3,\"MessageText\":\"caf\xC3\xA9 \xF0\x9D\x84\x9E\"}"),
                 messages({{3, "caf\xC3\xA9 \xF0\x9D\x84\x9E"}}));
}

TEST_P(JsonSpellings, NumberSpellings) {
  // Hand-written against the model's member names: designated initializers
  // below stop compiling if a member is renamed, so this cannot go stale.
  const std::string payload =
      R"({"value":[{"PartitionKey":"p","RowKey":"r","Timestamp":"2026-01-01T00:00:00.0000000Z",)"
      R"("X":0,"Y":-12,"Temp":1.5E+2,"Humidity":-0.0,"Pressure":150,"Wind":1E2},)"
      R"({"PartitionKey":"p","RowKey":"s","Timestamp":"2026-01-01T00:00:01.5Z",)"
      R"("X":2147483647,"Y":-2147483648,"Temp":2.5e-3,"Humidity":0.30000000000000004,)"
      R"("Pressure":1e2,"Wind":-7}]})";
  const std::vector<ScienceRow> expected = {{.PartitionKey = "p",
                                             .RowKey = "r",
                                             .Timestamp = {17'672'256'000'000'000},
                                             .X = 0,
                                             .Y = -12,
                                             .Temp = 150.0,
                                             .Humidity = -0.0,
                                             .Pressure = 150.0,
                                             .Wind = 100.0},
                                            {.PartitionKey = "p",
                                             .RowKey = "s",
                                             .Timestamp = {17'672'256'015'000'000},
                                             .X = 2147483647,
                                             .Y = -2147483647 - 1,
                                             .Temp = 0.0025,
                                             .Humidity = 0.30000000000000004,
                                             .Pressure = 100.0,
                                             .Wind = -7.0}};
  expect_decodes(payload, expected);
  try {
    const Records got = decode(decoder(), payload, DatasetKind::science);
    const auto& rows = std::get<std::vector<ScienceRow>>(got);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(std::signbit(rows[0].Humidity)) << "-0.0 lost its sign";
  } catch (const DecodeError& e) {
    ADD_FAILURE() << e.describe();
  }
}

// A zero written with an exponent or many digits is 0. RapidJSON 1.1.0's
// full-precision conversion reads "0e40" as -2.4e229 and "0." + 400 zeros out
// of bounds; the other decoders guard against the same.
TEST_P(JsonSpellings, ZeroInEverySpelling) {
  const std::string many_zeros = "0." + std::string(400, '0');
  const std::vector<std::string> zeros = {"0e40",        "0E+99",  "0e308",    "0.0e-330",
                                          "0.00000e-20", "0e-400", many_zeros, many_zeros + "e-30"};
  for (const std::string& zero : zeros)
    for (const bool minus : {false, true}) {
      const std::string text = (minus ? "-" : "") + zero;
      const std::vector<Airport> expected = {{{}, minus ? -0.0 : 0.0, 1.0, "N"}};
      expect_decodes(
          R"({"value":[{"Contacts":[],"Latitude":)" + text + R"(,"Longitude":1,"Name":"N"}]})",
          expected);
    }
}

// Trailing zeros and more than 19 digits. simdjson 3.0.1's On-Demand reads
// 0.800000000000000000000 as 0.00679 (its issue #2093), and its DOM reads it
// right.
TEST_P(JsonSpellings, ManyDigitsReadTheSameNumber) {
  const std::vector<std::pair<std::string, double>> numbers = {
      {"0.800000000000000000000", 0.8},
      {"0.95000000000000000000", 0.95},
      {"1000000000.000000001", 1e9},
      {"0.8" + std::string(100, '0'), 0.8},
      {"12.50000000000000000000000000e-1", 1.25},
      {"-0.0000000000000000000001234567890123456789", -1.234567890123456789e-22}};
  for (const auto& [text, value] : numbers) {
    const std::vector<Airport> expected = {{{}, value, 1.0, "N"}};
    expect_decodes(
        R"({"value":[{"Contacts":[],"Latitude":)" + text + R"(,"Longitude":1,"Name":"N"}]})",
        expected);
  }
}

TEST_P(JsonSpellings, ByteOrderMark) {
  expect_decodes("\xEF\xBB\xBF" + feed(R"({"ID":1,"MessageText":"a"})"), messages({{1, "a"}}));
}

TEST_P(JsonSpellings, UnknownMembersOfAnyShapeAreSkipped) {
  const std::string payload =
      R"({"odata.count":"1","odata.metadata":"m","extra":{"a":[1,{"b":null}],"c":true},)"
      R"("value":[{"odata.etag":"W/\"datetime'x'\"","ID":1,)"
      R"("MessageText@odata.type":"Edm.String","MessageText":"a",)"
      R"("o":{"n":{"m":[[],{},[{"z":false}]]}},"arr":[[1,2],[]],"n":null,"t":true,"f":false,)"
      R"("num":-1.5e300,"s":"}]"},)"
      R"({"ID":2,"deep":[[[[{"value":[1]}]]]],"MessageText":"b","last":{}}],)"
      R"("odata.nextLink":"http://x/Messages?$skiptoken=2"})";
  expect_decodes(payload, messages({{1, "a"}, {2, "b"}}));
  const std::vector<Airport> airport = {{{{"F", "L"}}, 1, 2, "N"}};
  expect_decodes(R"j({"value":[{"Contacts@odata.type":"Collection(X.Contact)",)j"
                 R"("Contacts":[{"odata.type":"X.Contact","FirstName":"F","x":[null],)"
                 R"("LastName":"L"}],"Latitude":1,"Longitude":2,"Name":"N"}]})",
                 airport);
}

TEST_P(JsonSpellings, RejectsWhatIsNotAFeed) {
  expect_rejects("empty input", "");
  expect_rejects("not an object", "[]");
  expect_rejects("not an object", R"("value")");
  expect_rejects("missing value", "{}");
  expect_rejects("missing value", "{" + std::string(kMeta) + "}");
  expect_rejects("value not an array", R"({"value":{}})");
  expect_rejects("value not an array", R"({"value":null})");
  expect_rejects("row not an object", R"({"value":[1]})");
  expect_rejects("row not an object", R"({"value":[[]]})");
  expect_rejects("row not an object", R"({"value":[null]})");
  expect_rejects("truncated", R"({"value":[{"ID":1,"MessageText":"a"})");
  expect_rejects("trailing bytes", R"({"value":[]}x)");
  expect_rejects("two documents", R"({"value":[]}{"value":[]})");
}

TEST_P(JsonSpellings, RejectsWrongValueTypes) {
  expect_rejects("string for ID", feed(R"({"ID":"1","MessageText":"a"})"));
  expect_rejects("fraction for ID", feed(R"({"ID":1.5,"MessageText":"a"})"));
  expect_rejects("ID above int32", feed(R"({"ID":2147483648,"MessageText":"a"})"));
  expect_rejects("ID below int32", feed(R"({"ID":-2147483649,"MessageText":"a"})"));
  expect_rejects("ID far out of range", feed(R"({"ID":18446744073709551616,"MessageText":"a"})"));
  expect_rejects("null for ID", feed(R"({"ID":null,"MessageText":"a"})"));
  expect_rejects("boolean for ID", feed(R"({"ID":true,"MessageText":"a"})"));
  expect_rejects("null for a string", feed(R"({"ID":1,"MessageText":null})"));
  expect_rejects("number for a string", feed(R"({"ID":1,"MessageText":5})"));
  expect_rejects("object for a string", feed(R"({"ID":1,"MessageText":{}})"));
  expect_rejects("array for a string", feed(R"({"ID":1,"MessageText":["a"]})"));
  expect_rejects("object for a collection", R"({"value":[{"Contacts":{}}]})", DatasetKind::airport);
  expect_rejects("number in a collection", R"({"value":[{"Contacts":[1]}]})", DatasetKind::airport);
  expect_rejects("string for a double", R"({"value":[{"Latitude":"1.5"}]})", DatasetKind::airport);
  expect_rejects("not a date", R"({"value":[{"Timestamp":"yesterday"}]})", DatasetKind::science);
}

TEST_P(JsonSpellings, RejectsMalformedText) {
  // Invalid UTF-8 and broken escapes are malformed input.
  expect_rejects("invalid UTF-8", feed("{\"ID\":1,\"MessageText\":\"\xC3\x28\"}"));
  expect_rejects("lone surrogate", feed(R"({"ID":1,"MessageText":"\ud834"})"));
  expect_rejects("bad escape", feed(R"({"ID":1,"MessageText":"\x41"})"));
  expect_rejects("raw control character", feed("{\"ID\":1,\"MessageText\":\"a\nb\"}"));
  expect_rejects("single quotes", feed(R"({'ID':1,"MessageText":"a"})"));
  expect_rejects("trailing comma", feed(R"({"ID":1,"MessageText":"a",})"));
  // In members no decoder binds too: simdjson On-Demand passes over them
  // unchecked unless the adapter walks them.
  expect_rejects("bad escape in an unknown member",
                 feed(R"({"ID":1,"MessageText":"a","Other":"\u0po"})"));
  expect_rejects("a control byte before an unknown member's value",
                 feed("{\"ID\":1,\"MessageText\":\"a\",\"Other\":\x11\"b\"}"));
  expect_rejects("bad escape in the feed's metadata",
                 R"({"odata.metadata":"\u0po","value":[{"ID":1,"MessageText":"a"}]})");
  expect_rejects("a bad number in an annotation", feed(R"({"ID":1,"MessageText":"a","x@y":01})"));
}

INSTANTIATE_TEST_SUITE_P(Registry, JsonSpellings, ::testing::ValuesIn(decoder_cases("json")),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(JsonSpellings);

}  // namespace
}  // namespace wb::test
