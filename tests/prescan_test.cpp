// codecs/xml/prescan.hpp: the depth and DOCTYPE guard before Xerces and
// RapidXML. It steps from mark to mark (SpecialBytes), so these cover what a
// step could miss: self-closing tags, '>' in attribute values, comments,
// declarations, the exact limit and the offsets it reports; and, for
// RapidXML, the characters it checks in place of the parser.
#include "codecs/xml/prescan.hpp"

#include <string>

#include "tests/test_support.hpp"

namespace wb::xml {
namespace {

std::string nested(int depth, const std::string& inner = "") {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "<a x='1>2'>";
  s += inner;
  for (int i = 0; i < depth; ++i) s += "</a>";
  return s;
}

long long rejected_at(const std::string& doc, long long base = 0,
                      Characters characters = Characters::parser_checks) {
  SpecialBytes marks;
  try {
    reject_unbounded("test", doc, marks, base, characters);
  } catch (const DecodeError& e) {
    return e.offset();
  }
  return -1;
}

TEST(Prescan, AcceptsTheLimitAndRejectsOneMoreAtItsTag) {
  EXPECT_EQ(rejected_at(nested(kMaxDepth)), -1);
  const std::string deep = nested(kMaxDepth + 1);
  const long long tag = static_cast<long long>(kMaxDepth * std::string("<a x='1>2'>").size());
  EXPECT_EQ(rejected_at(deep), tag);
  EXPECT_EQ(rejected_at(deep, 3), tag + 3);  // after a BOM the caller skipped
}

TEST(Prescan, SelfClosingTagsCommentsAndDeclarationsDoNotNest) {
  std::string wide = "<?xml version='1.0'?><!-- <b> --><r>";
  for (int i = 0; i < 3 * kMaxDepth; ++i)
    wide += "<e a='>' b=\"'>\"/><?pi <x> ?><!-- <c> --><![CDATA[<d>]]>";
  wide += "</r>";
  EXPECT_EQ(rejected_at(wide), -1);
  EXPECT_EQ(rejected_at(nested(kMaxDepth - 1, "<e/><f/>")), -1);
}

// Were the end tags in a comment, a CDATA section, a PI or an attribute value
// counted, they would hide as many levels of real nesting from the guard,
// and RapidXML would recurse past it.
TEST(Prescan, EndTagsOutsideMarkupDoNotHideNesting) {
  std::string hidden;
  for (int i = 0; i < kMaxDepth; ++i) hidden += "</a>";
  for (const std::string& cover :
       {"<!--" + hidden + "-->", "<![CDATA[" + hidden + "]]>", "<?pi " + hidden + "?>",
        "<b x='" + hidden + "'/>", "<b x=\"" + hidden + "\"/>"}) {
    const std::string doc = "<r>" + cover + nested(kMaxDepth) + "</r>";
    EXPECT_EQ(rejected_at(doc), static_cast<long long>(doc.rfind("<a x='1>2'>")))
        << cover.substr(0, 12);
  }
}

TEST(Prescan, RejectsADoctypeWhereItStands) {
  const std::string doc = "<?xml version='1.0'?>\n<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>";
  EXPECT_EQ(rejected_at(doc), static_cast<long long>(doc.find("<!DOCTYPE")));
  EXPECT_EQ(rejected_at("<r><!-- <!DOCTYPE r> --><![CDATA[<!DOCTYPE r>]]></r>"), -1);
}

TEST(Prescan, ATruncatedTagEndsTheScan) {
  EXPECT_EQ(rejected_at(nested(kMaxDepth + 1).substr(0, 5)), -1);
  EXPECT_EQ(rejected_at("<a><b"), -1);
}

// For RapidXML, which checks no characters, the scan rejects what
// char_data() would reject in a value, at the offending byte, wherever a
// value can be; Xerces checks them itself and is not charged for it.
TEST(Prescan, ChecksCharactersOnlyWhenAsked) {
  const auto checked_at = [](const std::string& doc) {
    return rejected_at(doc, 0, Characters::scan_checks);
  };
  for (const std::string& bad :
       std::initializer_list<std::string>{"&", "&x;", "&#0;", "&#xD800;", "&#x110000;", "&#;",
                                          "&amp", std::string(1, '\0'), "\x01", "\x1f"}) {
    const std::string in_text = "<r>a" + bad + "</r>";
    const std::string in_value = "<r><e v='a" + bad + "'/></r>";
    EXPECT_EQ(checked_at(in_text), 4) << bad;
    EXPECT_EQ(checked_at(in_value), 10) << bad;
    EXPECT_EQ(rejected_at(in_text), -1) << bad;
    EXPECT_EQ(rejected_at(in_value), -1) << bad;
  }
  EXPECT_EQ(checked_at("<r><e v=\"a<b\"/></r>"), 10);
  EXPECT_EQ(checked_at("<r>\x02<!-- & < --></r>"), 3);  // controls count everywhere
  EXPECT_EQ(checked_at("<r><!-- \x02 --></r>"), 8);
  EXPECT_EQ(checked_at("<r><e\x02 v='1'/></r>"), 5);
  const std::string good =
      "<?xml version='1.0'?><r a='&amp;&#x41;&#66;\t\n\r'>&lt;&gt;&quot;&apos;\t\r\n"
      "<!-- & < --><![CDATA[ & < ]]><?pi & < ?><e v=\"'>&amp;\"/></r>";
  EXPECT_EQ(checked_at(good), -1);
}

}  // namespace
}  // namespace wb::xml
