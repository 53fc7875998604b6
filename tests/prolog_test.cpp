// codecs/xml/prolog.hpp: before any XML parser sees a payload, a DOCTYPE in
// the prolog and a document in another encoding than UTF-8 are refused, with
// the offset of what was refused; and every XML decoder and router of the
// registry does refuse them (the parsers on their own disagree: libxml2 and
// expat drop an external entity's reference from the text, pugixml keeps it
// as text, and Xerces expands the entities of a UTF-16 DTD).
#include "codecs/xml/prolog.hpp"

#include <string>

#include "codecs/router.hpp"
#include "tests/test_support.hpp"

namespace wb::xml {
namespace {

// The offset open_document refuses doc at, or -1 if it lets it through.
long long refused_at(std::string_view doc) {
  try {
    open_document("test", doc);
  } catch (const DecodeError& e) {
    return e.offset();
  }
  return -1;
}

std::string utf16le(std::string_view ascii) {
  std::string out = "\xFF\xFE";
  for (char c : ascii) out += {c, '\0'};
  return out;
}

TEST(Prolog, RefusesADoctypeAfterTheDeclarationCommentsAndPis) {
  const std::string doc = "<?xml version='1.0'?>\n<!-- <r/> --><?pi x?>\n<!DOCTYPE r><r/>";
  EXPECT_EQ(refused_at(doc), static_cast<long long>(doc.find("<!DOCTYPE")));
  EXPECT_EQ(refused_at("\xEF\xBB\xBF<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"), 3);  // after a BOM
}

TEST(Prolog, LeavesAllButAPrologDoctypeToTheParser) {
  EXPECT_EQ(refused_at("<r/>"), -1);
  EXPECT_EQ(refused_at("<?xml version='1.0' encoding='UTF-8'?><r/>"), -1);
  EXPECT_EQ(refused_at("<?xml version=\"1.0\" encoding = \"utf-8\" standalone=\"yes\"?><r/>"), -1);
  EXPECT_EQ(refused_at("<!-- <!DOCTYPE r> --><r><!DOCTYPE r></r>"), -1);  // the parser's error
  EXPECT_EQ(refused_at("<!-- unterminated <!DOCTYPE r>"), -1);
  EXPECT_EQ(refused_at(""), -1);
  EXPECT_EQ(refused_at("<?xml-stylesheet href='a'?><r/>"), -1);  // a PI, not the declaration
}

TEST(Prolog, RefusesOtherEncodingsAtWhereTheyShow) {
  EXPECT_EQ(refused_at(utf16le("<r/>")), 0);
  EXPECT_EQ(refused_at(std::string("<\0r\0/\0>\0", 8)), 0);    // UTF-16LE without a BOM
  EXPECT_EQ(refused_at(std::string("\0\0\0<\0\0\0r", 8)), 0);  // UTF-32BE
  EXPECT_EQ(refused_at("\xEF\xBB\xBF\xFE\xFF"), 3);
  // Declared as another encoding: refused at the first byte that would read
  // differently in it; an ASCII document (Netflix's iso-8859-1 feeds) passes.
  const std::string latin1 = "<?xml version='1.0' encoding='ISO-8859-1'?><r>\xE9</r>";
  EXPECT_EQ(refused_at(latin1), static_cast<long long>(latin1.find('\xE9')));
  EXPECT_EQ(refused_at("<?xml version='1.0' encoding='iso-8859-1' standalone='yes'?><r>e</r>"), -1);
}

// Documents every XML decoder and router must refuse, whatever its parser
// would make of them.
const std::string kRefused[] = {
    "<?xml version=\"1.0\"?><!DOCTYPE feed [<!ENTITY ext SYSTEM \"file:///etc/passwd\">]>"
    "<feed xmlns=\"http://www.w3.org/2005/Atom\">&ext;</feed>",
    "<!DOCTYPE s:Envelope [<!ENTITY e \"x\">]><s:Envelope "
    "xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>&e;</s:Body></s:Envelope>",
    utf16le("<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE r [<!ENTITY e \"x\">]>"
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">&e;</feed>"),
    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><feed "
    "xmlns=\"http://www.w3.org/2005/Atom\">\xE9</feed>",
};

class PrologDecoders : public ::testing::TestWithParam<test::DecoderCase> {};

TEST_P(PrologDecoders, RefuseDoctypesAndOtherEncodings) {
  const CodecEntry& d = *GetParam().decoder;
  const auto decoder = d.make_decoder();
  for (const std::string& doc : kRefused) {
    SCOPED_TRACE(::testing::PrintToString(doc));
    const std::string input = padded_copy(doc);
    for (DatasetKind kind : {DatasetKind::message, DatasetKind::entity}) {
      if (kind == DatasetKind::entity && d.format != "atom") continue;
      Records out = empty_records(kind);
      EXPECT_THROW(decoder->decode(input, out), DecodeError);
    }
    EXPECT_THROW(decoder->parse_only(input), DecodeError);
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, PrologDecoders, ::testing::ValuesIn(test::xml_decoder_cases()),
                         test::decoder_case_name);
// A build with every XML library left out has no case here.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PrologDecoders);

TEST(PrologRouters, EveryXmlRouterRefusesThem) {
  const RouteRule rule{"http://schemas.datacontract.org/2004/07/WireBench.Messages", "MessageText",
                       "x"};
  for (const RouterEntry& r : routers()) {
    SCOPED_TRACE(std::string(r.library));
    const auto router = r.make();
    for (const std::string& doc : kRefused)
      EXPECT_THROW(router->route(padded_copy(doc), rule), DecodeError);
  }
}

}  // namespace
}  // namespace wb::xml
