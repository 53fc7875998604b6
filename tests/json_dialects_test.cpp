// The OData JSON dialects (codecs/json/dialect.hpp) through every JSON
// decoder: hand-written v1, v2 verbose and v4 envelopes and rows, the value
// forms each dialect allows (and v3 refuses), the feed's next link and count,
// and entity rows read the way each dialect types them.
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

using Props = std::vector<EntityProperty>;

class JsonDialects : public ::testing::TestWithParam<DecoderCase> {
 protected:
  const CodecEntry& decoder() const { return *GetParam().decoder; }

  // Decodes payload and checks the rows, the next link and the count.
  void expect_feed(std::string_view payload, const Records& expected, const FeedPage& page = {}) {
    SCOPED_TRACE(std::string("payload: ") + std::string(payload));
    const std::string padded = padded_copy(payload);
    Records got = empty_records(dataset_of(expected));
    auto d = decoder().make_decoder();
    try {
      d->decode(std::string_view(padded.data(), payload.size()), got);
    } catch (const DecodeError& e) {
      return ADD_FAILURE() << "rejected: " << e.describe();
    }
    EXPECT_TRUE(same_records(expected, got, decoder().exact));
    EXPECT_EQ(d->page().next_link, page.next_link);
    EXPECT_EQ(d->page().count, page.count);
  }

  void expect_rejects(std::string_view why, std::string_view payload,
                      DatasetKind kind = DatasetKind::message) {
    SCOPED_TRACE(std::string(why) + ": " + std::string(payload));
    EXPECT_THROW(decode(decoder(), payload, kind), DecodeError);
  }
};

Records messages(std::vector<Message> rows) {
  return rows;
}

Records entities(std::vector<Props> props) {
  std::vector<EntityRow> out;
  for (Props& p : props) out.push_back({std::move(p)});
  return out;
}

TEST_P(JsonDialects, VerboseV1ArrayAndV2ResultsWithMetadataAndPaging) {
  expect_feed(R"j({"d" : [{"__metadata": {"uri": "http://x/M(1)", "type": "NS.Message"},)j"
              R"j( "ID": 1, "MessageText": "a"}]})j",
              messages({{1, "a"}}));
  // Olingo writes __count before results, WCF after; __next after.
  expect_feed(R"j({"d":{"__count":"77","results":[{"__metadata":{"id":"i","uri":"u",)j"
              R"j("type":"NS.Message","etag":"W/\"1\""},"MessageText":"b","ID":2,)j"
              R"j("Other":{"__deferred":{"uri":"http://x/M(2)/Other"}}}],)j"
              R"j("__next":"http://x/M?$skiptoken=2"}})j",
              messages({{2, "b"}}), {"http://x/M?$skiptoken=2", 77});
}

TEST_P(JsonDialects, VerboseValueForms) {
  // Numbers as strings (SAP Gateway, Olingo), dates as \/Date(ms)\/, lists
  // as {"results": [...]} with their __metadata, or bare arrays (v1).
  expect_feed(R"j({"d":{"results":[{"ID":"3","MessageText":"c"}]}})j", messages({{3, "c"}}));
  const std::vector<Airport> airport = {{{{"F", "L"}}, -1.25, 2.5, "N"}};
  expect_feed(
      R"j({"d":{"results":[{"Contacts":{"__metadata":{"type":"NS.Contacts"},)j"
      R"j("results":[{"__metadata":{"type":"NS.Contact"},"FirstName":"F","LastName":"L"}]},)j"
      R"j("Latitude":"-1.25","Longitude":2.5,"Name":"N"}]}})j",
      airport);
  expect_feed(R"j({"d":[{"Contacts":[{"FirstName":"F","LastName":"L"}],)j"
              R"j("Latitude":-1.25,"Longitude":2.5,"Name":"N"}]})j",
              airport);
  std::vector<ScienceRow> science(1);
  science[0] = {"p", "r", DateTime{1'767'225'600'161 * 10'000}, 1, 2, 0.5, 1, 2, 3};
  expect_feed(R"j({"d":{"results":[{"PartitionKey":"p","RowKey":"r",)j"
              R"j("Timestamp":"\/Date(1767225600161)\/","X":1,"Y":2,"Temp":0.5,)j"
              R"j("Humidity":1,"Pressure":2,"Wind":"3"}]}})j",
              Records(science));
  expect_rejects(
      "a list without results",
      R"j({"d":{"results":[{"Contacts":{"x":[]},"Latitude":1,"Longitude":2,"Name":"N"}]}})j",
      DatasetKind::airport);
  expect_rejects("results that is not an array", R"j({"d":{"results":{}}})j");
  expect_rejects("d that is a string", R"j({"d":"x"})j");
  expect_rejects("a string that is no number",
                 R"j({"d":{"results":[{"ID":"x","MessageText":"a"}]}})j");
}

TEST_P(JsonDialects, V4EnvelopeAnnotationsAndNumbersAsText) {
  expect_feed(
      R"j({"@odata.context":"http://x/$metadata#Messages","@odata.count":25,)j"
      R"j("@ns.feed":{"a":1},"value":[{"@odata.etag":"W/\"1\"","@odata.type":"#NS.Message",)j"
      R"j("@odata.id":"http://x/M(1)","@ns.term":[1],"ID":"1","MessageText@ns.note":"n",)j"
      R"j("MessageText":"a"}],"@odata.nextLink":"http://x/M?$skip=1"})j",
      messages({{1, "a"}}), {"http://x/M?$skip=1", 25});
  // v3 light keeps its numbers numbers; its count is a string.
  expect_rejects("v3 with a number as text", R"j({"odata.metadata":"http://x/$metadata#Messages",)j"
                                             R"j("value":[{"ID":"1","MessageText":"a"}]})j");
  expect_feed(R"j({"odata.metadata":"m","odata.count":"3","value":[{"ID":1,"MessageText":"a"}],)j"
              R"j("odata.nextLink":"M?$skiptoken=1"})j",
              messages({{1, "a"}}), {"M?$skiptoken=1", 3});
}

TEST_P(JsonDialects, BadEnvelopesAreRejected) {
  expect_rejects("two sets of rows", R"j({"d":[],"value":[]})j");
  expect_rejects("a next link that is a number", R"j({"value":[],"@odata.nextLink":1})j");
  expect_rejects("a negative count", R"j({"value":[],"@odata.count":-1})j");
  expect_rejects("a count that is no integer", R"j({"d":{"results":[],"__count":"x"}})j");
  expect_rejects("no rows", R"j({"@odata.context":"x"})j");
}

TEST_P(JsonDialects, EntityRowsOfEachDialect) {
  // v2: no annotations; \/Date(ms)\/ is a date; __metadata and deferred
  // navigation properties are not properties.
  expect_feed(R"j({"d":{"results":[{"__metadata":{"uri":"u","type":"T"},"S":"x","I":5,)j"
              R"j("D":"\/Date(1000)\/","N":{"__deferred":{"uri":"u/N"}},"E":{"results":[]}}]}})j",
              entities({{{"S", "Edm.String", "x"},
                         {"I", "Edm.Int32", "5"},
                         {"D", "Edm.DateTime", "1970-01-01T00:00:01.0000000Z"},
                         {"E", "Complex", R"j({"results":[]})j"}}}));
  // v4: types as #Name; instance annotations and actions are metadata.
  expect_feed(R"j({"@odata.context":"c","value":[{"@search.score":1.5,"#NS.Act":{"title":"t"},)j"
              R"j("L@odata.type":"#Int64","L":"9007199254740993",)j"
              R"j("C@odata.type":"#Collection(Decimal)","C":["1.5"],)j"
              R"j("G@odata.type":"#NS.Geo","G":{"a":1}}]})j",
              entities({{{"L", "Edm.Int64", "9007199254740993"},
                         {"C", "Collection(Edm.Decimal)", R"j(["1.5"])j"},
                         {"G", "NS.Geo", R"j({"a":1})j"}}}));
  // v3: a "/Date(ms)/" string stays a string.
  expect_feed(R"j({"odata.metadata":"m","value":[{"D":"\/Date(1000)\/"}]})j",
              entities({{{"D", "Edm.String", "/Date(1000)/"}}}));
}

std::vector<DecoderCase> dialect_decoders() {
  std::vector<DecoderCase> out;
  for (std::string_view f : {"json", "json-verbose", "json-v4"})
    for (const DecoderCase& c : decoder_cases(f)) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, JsonDialects, ::testing::ValuesIn(dialect_decoders()),
                         decoder_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(JsonDialects);

// Every encoder and decoder of a format with feeds carries a page's next
// link and count through the payload, and none without a page.
class FeedPages : public ::testing::TestWithParam<PairCase> {};

TEST_P(FeedPages, NextLinkAndCountRoundTrip) {
  const PairCase& p = GetParam();
  const Records records = generate(p.dataset, 3);
  for (const FeedPage& page : {FeedPage{"http://x/Set?$skiptoken=3&$top=2", 25}, FeedPage{}}) {
    SCOPED_TRACE("next link '" + page.next_link + "', count " + std::to_string(page.count));
    std::string payload;
    p.encoder->make_encoder()->encode_page(records, page, payload);
    const std::string padded = padded_copy(payload);
    Records got = empty_records(p.dataset);
    auto d = p.decoder->make_decoder();
    d->decode(std::string_view(padded.data(), payload.size()), got);
    EXPECT_TRUE(same_records(records, got, p.decoder->exact));
    EXPECT_EQ(d->page(), page);
  }
}

std::vector<PairCase> feed_pairs() {
  std::vector<PairCase> out;
  const DatasetInfo& entity = dataset_info(DatasetKind::entity);
  for (const PairCase& p : pair_cases())
    if (defined_for(entity, p.encoder->format) && p.dataset == DatasetKind::message)
      out.push_back(p);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, FeedPages, ::testing::ValuesIn(feed_pairs()), pair_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FeedPages);

}  // namespace
}  // namespace wb::test
