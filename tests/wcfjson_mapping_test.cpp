// The WCF JSON<->XML mapping (codecs/wcfjson/infoset.hpp) on Microsoft's
// documented examples (corpus/real/wcf-json-xml/ under WIREBENCH_CORPUS;
// skipped without it), compared as parsed
// XML, not text; every XML library's infoset against the text writer; and a
// wcfjson payload against the json payload of the same records.
#include <pugixml.hpp>

#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/infoset.hpp"
#include "codecs/wcfjson/read_nlohmann.hpp"
#include "codecs/wcfjson/read_rapidjson.hpp"
#include "codecs/wcfjson/read_simdjson.hpp"
#include "codecs/wcfjson/write_nlohmann.hpp"
#include "codecs/wcfjson/write_rapidjson.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

using namespace wb::wcfjson;

const ExternalCorpus& examples_corpus() {
  static const ExternalCorpus c =
      external_corpus("corpus/real/wcf-json-xml", "WCF's documented JSON<->XML examples");
  return c;
}

// Canonical form of an XML element: name, sorted attributes (xmlns included),
// element children in order, text with whitespace-only runs between elements
// dropped (the documented examples are indented).
std::string canonical(pugi::xml_node n) {
  std::vector<std::string> attrs;
  for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute())
    attrs.push_back(std::string(a.name()) + "=" + a.value());
  std::sort(attrs.begin(), attrs.end());
  std::string out = "<" + std::string(n.name());
  for (const std::string& a : attrs) out += " " + a;
  out += ">";
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_element) {
      out += canonical(c);
    } else if (c.type() == pugi::node_pcdata) {
      const std::string_view v = c.value();
      if (v.find_first_not_of(" \t\r\n") != std::string_view::npos) out += v;
    }
  }
  return out + "</" + std::string(n.name()) + ">";
}

std::string canonical_xml(const std::string& xml) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r =
      doc.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_ws_pcdata);
  if (!r) throw std::runtime_error(std::string("not XML: ") + r.description() + "\n" + xml);
  return canonical(doc.document_element());
}

// JSON text -> infoset XML text with one reader.
template <class Reader>
std::string to_infoset(const std::string& json) {
  const std::string padded = padded_copy(json);
  std::string xml;
  XmlTextSink sink(xml);
  JsonToInfoset<XmlTextSink> mapping(sink);
  Reader reader;
  reader.parse(std::string_view(padded.data(), json.size()), mapping);
  mapping.finish();
  return xml;
}

// JSON text -> DOM of one XML library (through RapidJSON) -> JSON with a writer.
template <class Dom, class Writer>
std::string json_round_trip(const std::string& json) {
  Dom dom;
  dom.reset();
  JsonToInfoset<Dom> mapping(dom);
  RapidjsonReader reader;
  reader.parse(padded_copy(json), mapping);
  mapping.finish();
  Writer writer;
  std::string out;
  writer.write(dom, dom.root(), out);
  return out;
}

std::string without_whitespace(const std::string& json) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string && c == '\\') {
      out += c;
      out += json[++i];
      continue;
    }
    if (c == '"') in_string = !in_string;
    if (in_string || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) out += c;
  }
  return out;
}

struct Example {
  std::string name, json, xml;
};

std::vector<Example> documented_examples(const std::filesystem::path& dir) {
  std::vector<Example> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".xml") continue;
    std::filesystem::path json = e.path();
    json.replace_extension(".json");
    out.push_back({e.path().stem().string(), read_file(json), read_file(e.path())});
  }
  return out;
}

// Both directions in one test, so that without the corpus one line says what
// was skipped.
TEST(WcfjsonMapping, DocumentedExamplesMapBothWays) {
  const ExternalCorpus& corpus = examples_corpus();
  if (!corpus.dir) GTEST_SKIP() << corpus.skip_line;
  ASSERT_TRUE(std::filesystem::is_directory(*corpus.dir))
      << *corpus.dir << " is missing: WIREBENCH_CORPUS names a folder without it";
  const auto examples = documented_examples(*corpus.dir);
  ASSERT_GE(examples.size(), 4u) << *corpus.dir;
  for (const Example& e : examples) {
    SCOPED_TRACE(e.name);
    const std::string want_xml = canonical_xml(e.xml);
    EXPECT_EQ(canonical_xml(to_infoset<RapidjsonReader>(e.json)), want_xml);
    EXPECT_EQ(canonical_xml(to_infoset<NlohmannReader>(e.json)), want_xml);
    EXPECT_EQ(canonical_xml(to_infoset<SimdjsonReader>(e.json)), want_xml);
    // The examples contain no '/' so WCF's "\/" escaping does not show here.
    const std::string want_json = without_whitespace(e.json);
    EXPECT_EQ((json_round_trip<PugixmlInfoset, RapidjsonWriter>(e.json)), want_json);
    EXPECT_EQ((json_round_trip<Libxml2Infoset, RapidjsonWriter>(e.json)), want_json);
    EXPECT_EQ((json_round_trip<XercesInfoset, NlohmannWriter>(e.json)), want_json);
  }
}

TEST(WcfjsonMapping, TypeHintOnlyAsFirstMember) {
  EXPECT_EQ(to_infoset<RapidjsonReader>(R"({"a":1,"__type":"X"})"),
            R"(<root type="object"><a type="number">1</a><__type type="string">X</__type></root>)");
  EXPECT_EQ(
      to_infoset<RapidjsonReader>(R"([{"__type":"Shape:#MyApp","x":5}])"),
      R"(<root type="array"><item type="object" __type="Shape:#MyApp"><x type="number">5</x></item></root>)");
}

TEST(WcfjsonMapping, KeysThatAreNotXmlNames) {
  for (std::string_view key : {"1a", "a b", "caf\xC3\xA9", "", "a:b"}) {
    const std::string json = "{\"" + std::string(key) + "\":true}";
    EXPECT_EQ(to_infoset<NlohmannReader>(json),
              R"(<root type="object"><a:item xmlns:a="item" item=")" + std::string(key) +
                  R"(" type="boolean">true</a:item></root>)");
    EXPECT_EQ((json_round_trip<XercesInfoset, RapidjsonWriter>(json)), json);
    EXPECT_EQ((json_round_trip<Libxml2Infoset, NlohmannWriter>(json)), json);
    EXPECT_EQ((json_round_trip<PugixmlInfoset, RapidjsonWriter>(json)), json);
  }
}

TEST(WcfjsonMapping, NumbersKeepTheirTextAndSlashesAreEscaped) {
  EXPECT_EQ(
      to_infoset<SimdjsonReader>("[1.50E+2 , -0.0]"),
      R"(<root type="array"><item type="number">1.50E+2</item><item type="number">-0.0</item></root>)");
  EXPECT_EQ((json_round_trip<PugixmlInfoset, RapidjsonWriter>(R"(["/Date(0)/",1.50E+2])")),
            R"(["\/Date(0)\/",1.50E+2])");
}

TEST(WcfjsonMapping, NestingIsBounded) {
  const std::string deep(100000, '[');
  EXPECT_THROW(to_infoset<RapidjsonReader>(deep), DecodeError);
  EXPECT_THROW(to_infoset<NlohmannReader>(deep), DecodeError);
  EXPECT_THROW(to_infoset<SimdjsonReader>(deep), DecodeError);
}

// Every XML library's infoset of a dataset, serialised, is the text writer's.
template <class Dom>
void expect_same_infoset(const Records& records) {
  std::visit(
      [&](const auto& rows) {
        std::string want, got;
        XmlTextSink text(want);
        write_infoset(text, rows);
        Dom dom;
        dom.reset();
        write_infoset(dom, rows);
        XmlTextSink copy(got);
        copy_infoset(dom, dom.root(), copy);
        EXPECT_EQ(got, want) << Dom::kName;
      },
      records);
}

TEST(WcfjsonMapping, EveryDomHoldsTheSameInfoset) {
  for (DatasetKind kind : {DatasetKind::message, DatasetKind::airport, DatasetKind::science}) {
    const Records records = generate(kind, test_rows(kind));
    expect_same_infoset<PugixmlInfoset>(records);
    expect_same_infoset<Libxml2Infoset>(records);
    expect_same_infoset<XercesInfoset>(records);
  }
}

TEST(WcfjsonPayload, DecodesToTheSameRecordsAsTheJsonPayload) {
  for (DatasetKind kind : {DatasetKind::message, DatasetKind::airport, DatasetKind::science}) {
    SCOPED_TRACE(dataset_name(kind));
    const Records records = generate(kind, test_rows(kind));
    const Records from_json = decode(*codecs_of("json", Role::decode).front(),
                                     encode(primary_encoder("json"), records), kind);
    const std::string wcf = encode(primary_encoder("wcfjson"), records);
    for (const CodecEntry* d : codecs_of("wcfjson", Role::decode)) {
      SCOPED_TRACE(d->library);
      EXPECT_TRUE(same_records(from_json, decode(*d, wcf, kind)));
    }
  }
}

TEST(WcfjsonPayload, ReadsDateOffsetsAndEscapedSlashes) {
  const std::string row = R"([{"Humidity":1,"PartitionKey":"p","Pressure":2,"RowKey":"r","Temp":3,)"
                          R"("Timestamp":"\/Date(1767225600161+0100)\/","Wind":4,"X":5,"Y":6}])";
  for (const CodecEntry* d : codecs_of("wcfjson", Role::decode)) {
    SCOPED_TRACE(d->library);
    const Records out = decode(*d, row, DatasetKind::science);
    const auto& rows = std::get<std::vector<ScienceRow>>(out);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].Timestamp.ticks, 1767225600161LL * 10000);
    EXPECT_EQ(rows[0].Y, 6);
  }
}

TEST(WcfjsonPayload, NullAndWrongTypesAreClearErrors) {
  for (const std::string bad :
       {R"([{"ID":null,"MessageText":"x"}])", R"([{"ID":{},"MessageText":"x"}])", R"({"ID":1})",
        R"([{"ID":1,"MessageText":["x"]}])"}) {
    for (const CodecEntry* d : codecs_of("wcfjson", Role::decode)) {
      SCOPED_TRACE(std::string(d->library) + " " + bad);
      EXPECT_THROW(decode(*d, bad, DatasetKind::message), DecodeError);
    }
  }
}

}  // namespace
}  // namespace wb::test
