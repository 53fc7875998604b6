// The serializers of an XML format write the same document: their outputs are
// equal after canonicalisation (C14N 1.0: attribute order, quoting, empty-tag
// style and the XML declaration do not matter), so that a pairing's decode
// cost compares like with like. libxml2's C14N is a tool here, not a codec
// under test.
#include <libxml/c14n.h>
#include <libxml/parser.h>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

std::string canonical(std::string_view xml) {
  xmlDocPtr doc = xmlReadMemory(xml.data(), static_cast<int>(xml.size()), nullptr, nullptr,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) return "<not well-formed>";
  xmlChar* out = nullptr;
  const int n = xmlC14NDocDumpMemory(doc, nullptr, XML_C14N_1_0, nullptr, 0, &out);
  std::string result = n < 0 ? "<c14n failed>" : std::string(reinterpret_cast<char*>(out), n);
  xmlFree(out);
  xmlFreeDoc(doc);
  return result;
}

class XmlCanonical : public ::testing::TestWithParam<EncoderCase> {};

TEST_P(XmlCanonical, EqualsThePrimaryEncodersDocument) {
  const auto [encoder, dataset] = GetParam();
  const Records records = generate(dataset, test_rows(dataset));
  const std::string ours = encode(*encoder, records);
  const std::string primary = encode(primary_encoder(encoder->format), records);
  EXPECT_EQ(canonical(ours), canonical(primary));
}

// The encoders of the formats whose payloads are XML (their WB_FORMAT line).
std::vector<EncoderCase> xml_encoder_cases() {
  std::vector<EncoderCase> out;
  for (const EncoderCase& c : encoder_cases())
    if (syntax_of(c.encoder->format) == Syntax::xml) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, XmlCanonical, ::testing::ValuesIn(xml_encoder_cases()),
                         encoder_case_name);

}  // namespace
}  // namespace wb::test
