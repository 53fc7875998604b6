// The registry's labels (codecs/registry.def, vocabulary in registry.hpp):
// every codec and router has them, in the vocabulary, and the labels a
// decoder's behaviour can show are held to that behaviour, so they cannot
// drift from the code: a string with an invalid UTF-8 byte that decodes means
// "no UTF-8 check", one that is rejected means "validates UTF-8"; the same
// for a control character in XML text and "no XML character-range check";
// and "exact doubles" or "inexact doubles" matches the registry's `exact`.
#include <initializer_list>
#include <set>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

// The word of a labels item: its text before " (detail)".
std::string_view word_of(std::string_view item) {
  const std::size_t paren = item.find(" (");
  return paren == std::string_view::npos ? item : item.substr(0, paren);
}

bool one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words)
    if (word == w) return true;
  return false;
}

// A binary format's codec: exactly one item says generated code or a generic
// API, and exactly one the layout.
::testing::AssertionResult binary_labels(std::string_view labels) {
  if (has_label(labels, label::kGeneratedCode) == has_label(labels, label::kGeneric))
    return ::testing::AssertionFailure() << "not exactly one of generated code, generic";
  if (has_label(labels, label::kMapLayout) == has_label(labels, label::kArrayLayout))
    return ::testing::AssertionFailure() << "not exactly one of map layout, array layout";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult well_formed(std::string_view labels) {
  if (labels.empty()) return ::testing::AssertionFailure() << "no labels";
  std::set<std::string_view> seen;
  for (std::string_view item : label_items(labels)) {
    if (item.empty() || item.front() == ' ' || item.back() == ' ')
      return ::testing::AssertionFailure() << "an empty or padded item in \"" << labels << "\"";
    if (!seen.insert(word_of(item)).second)
      return ::testing::AssertionFailure()
             << "\"" << word_of(item) << "\" twice in \"" << labels << "\"";
  }
  return ::testing::AssertionSuccess();
}

TEST(Labels, ItemsSplitOutsideParentheses) {
  const auto items = label_items("DOM, in situ (in a copy, non-destructive), validates UTF-8");
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[1], "in situ (in a copy, non-destructive)");
  EXPECT_TRUE(has_label("DOM, in situ (in a copy, non-destructive)", label::kInSitu));
  EXPECT_FALSE(has_label("DOM, in situ (in a copy)", "in"));
  EXPECT_FALSE(has_label("validates UTF-8 everywhere", label::kValidatesUtf8));
}

TEST(Labels, EveryCodecHasLabelsInTheVocabulary) {
  std::set<std::string> keys;
  for (const CodecEntry& c : codecs()) {
    SCOPED_TRACE(label_context_key(c));
    EXPECT_TRUE(keys.insert(label_context_key(c)).second) << "context key twice";
    ASSERT_TRUE(well_formed(c.labels));
    const auto items = label_items(c.labels);
    if (c.role == Role::encode) {
      EXPECT_TRUE(one_of(word_of(items[0]), {label::kStreamingWriter, label::kTreeThenSerialized}))
          << c.labels;
      if (syntax_of(c.format) == Syntax::binary) {
        EXPECT_TRUE(binary_labels(c.labels)) << c.labels;
      }
      continue;
    }
    ASSERT_GE(items.size(), 3u) << c.labels;
    if (syntax_of(c.format) == Syntax::binary) {
      // Doubles travel as their bits: no conversion to label.
      // The API (DOM, SAX, pull, or the generated code's own), then where
      // the values live.
      EXPECT_TRUE(binary_labels(c.labels)) << c.labels;
      EXPECT_TRUE(one_of(word_of(items[0]),
                         {label::kDom, label::kSax, label::kPull, label::kGeneratedCode}))
          << c.labels;
      EXPECT_TRUE(one_of(word_of(items[1]),
                         {label::kCopying, label::kZeroCopy, label::kNoTree, label::kInSitu}))
          << c.labels;
      EXPECT_NE(has_label(c.labels, label::kValidatesUtf8),
                has_label(c.labels, label::kNoUtf8Check))
          << "exactly one UTF-8 label: " << c.labels;
      EXPECT_TRUE(c.exact || has_label(c.labels, label::kInexactDoubles)) << c.labels;
      continue;
    }
    std::string_view api = word_of(items[0]);
    // A wcfjson decoder's API is its JSON reader's, into the infoset DOM.
    if (c.format == "wcfjson") {
      EXPECT_TRUE(api.ends_with(" + DOM")) << c.labels;
      if (api.ends_with(" + DOM")) api.remove_suffix(6);
    }
    EXPECT_TRUE(one_of(api, {label::kDom, label::kSax, label::kPull, label::kOnDemand}))
        << c.labels;
    EXPECT_TRUE(one_of(word_of(items[1]), {label::kInSitu, label::kCopying, label::kNoTree}))
        << c.labels;
    EXPECT_NE(has_label(c.labels, label::kValidatesUtf8), has_label(c.labels, label::kNoUtf8Check))
        << "exactly one UTF-8 label: " << c.labels;
    // Doubles: JSON text is read by a JSON library, whose conversion is the
    // question; every decoder known not to be exact says so.
    const bool exact_label = has_label(c.labels, label::kExactDoubles);
    const bool inexact_label = has_label(c.labels, label::kInexactDoubles);
    EXPECT_FALSE(exact_label && inexact_label) << c.labels;
    if (c.format.starts_with("json") || c.format == "wcfjson") {
      EXPECT_TRUE(exact_label || inexact_label) << c.labels;
    }
    if (exact_label || inexact_label) {
      EXPECT_EQ(exact_label, c.exact) << c.labels;
    }
    if (!c.exact) {
      EXPECT_TRUE(inexact_label) << c.labels;
    }
  }
}

TEST(Labels, EveryAccessorHasLabelsInTheVocabulary) {
  std::set<std::string> keys;
  for (const AccessorEntry& a : accessors()) {
    SCOPED_TRACE(label_context_key(a));
    EXPECT_TRUE(keys.insert(label_context_key(a)).second) << "context key twice";
    EXPECT_NE(find_codec(a.format, Role::decode, a.library), nullptr)
        << "an accessor without a decoder of its library";
    ASSERT_TRUE(well_formed(a.labels));
    EXPECT_EQ(word_of(label_items(a.labels)[0]), label::kVerifiedAccess) << a.labels;
    EXPECT_TRUE(binary_labels(a.labels)) << a.labels;
    EXPECT_TRUE(has_label(a.labels, label::kZeroCopy) || has_label(a.labels, label::kCopying))
        << a.labels;
    EXPECT_NE(has_label(a.labels, label::kValidatesUtf8), has_label(a.labels, label::kNoUtf8Check))
        << "exactly one UTF-8 label: " << a.labels;
  }
}

TEST(Labels, EveryRouterHasLabelsInTheVocabulary) {
  std::set<std::string> keys;
  for (const RouterEntry& r : routers()) {
    SCOPED_TRACE(label_context_key(r));
    EXPECT_TRUE(keys.insert(label_context_key(r)).second) << "context key twice";
    ASSERT_TRUE(well_formed(r.labels));
    EXPECT_TRUE(
        one_of(word_of(label_items(r.labels)[0]), {label::kXpathOverDom, label::kStreamingSniff}))
        << r.labels;
  }
}

// A one-row message payload from the format's primary encoder, with the row's
// text a marker that the caller then damages in place. Eight bytes: Cap'n
// Proto's packing copies a word of eight non-zero bytes as it is, and splits
// a longer text where its last word holds zeros.
constexpr std::string_view kMarker = "labelpro";

std::string payload_with_marker(std::string_view format) {
  const Records records = std::vector<Message>{{.ID = 7, .MessageText = std::string(kMarker)}};
  std::string payload = encode(primary_encoder(format), records);
  EXPECT_NE(payload.find(kMarker), std::string::npos) << format << ": " << payload;
  return payload;
}

// The payload with the marker's first byte replaced by replacement.
std::string damaged(std::string_view format, std::string_view replacement) {
  std::string payload = payload_with_marker(format);
  const std::size_t at = payload.find(kMarker);
  if (at != std::string::npos) payload.replace(at, 1, replacement);
  return payload;
}

// Whether the decoder returned records (true) or a DecodeError (false); any
// other exception fails the test.
bool decodes(const CodecEntry& decoder, std::string_view payload) {
  const std::string padded = padded_copy(payload);
  Records out = empty_records(DatasetKind::message);
  try {
    decoder.make_decoder()->decode(padded, out);
    return true;
  } catch (const DecodeError&) {
    return false;
  }
}

class DecoderLabels : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(DecoderLabels, Utf8LabelMatchesWhatTheDecoderDoes) {
  const CodecEntry& d = *GetParam().decoder;
  ASSERT_TRUE(decodes(d, payload_with_marker(d.format))) << "the undamaged payload";
  // 0xFF never occurs in UTF-8; 0x80 is a continuation byte without a lead.
  const bool ff = decodes(d, damaged(d.format, "\xFF"));
  const bool continuation = decodes(d, damaged(d.format, "\x80"));
  EXPECT_EQ(ff, continuation) << "accepts one invalid UTF-8 byte but not the other";
  const std::string_view expected = ff ? label::kNoUtf8Check : label::kValidatesUtf8;
  EXPECT_TRUE(has_label(d.labels, expected))
      << (ff ? "decodes" : "rejects") << " a string with byte 0xFF, but its labels are \""
      << d.labels << "\"";
}

// A control character U+0001 in the text: raw in XML (not a character XML
// allows), escaped in JSON (valid JSON, not a character an XML infoset may
// hold). Decoding it means the XML character ranges are not checked.
// JSON allows U+0001 in a string, so only the decoders that end in XML.
class XmlDecoderLabels : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(XmlDecoderLabels, CharacterRangeLabelMatchesWhatTheDecoderDoes) {
  const CodecEntry& d = *GetParam().decoder;
  const bool xml = d.format != "wcfjson";
  const bool accepted = decodes(d, damaged(d.format, xml ? "\x01" : "\\u0001"));
  EXPECT_EQ(accepted, has_label(d.labels, "no XML character-range check"))
      << (accepted ? "decodes" : "rejects") << " U+0001 in the text; labels \"" << d.labels << "\"";
  if (xml && !accepted) {
    EXPECT_TRUE(has_label(d.labels, "checks XML character ranges") ||
                has_label(d.labels, "control characters and references checked by the adapter"))
        << d.labels;
  }
}

std::vector<DecoderCase> xml_and_wcfjson_decoders() {
  std::vector<DecoderCase> out = xml_decoder_cases();
  for (const DecoderCase& c : decoder_cases("wcfjson")) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, DecoderLabels, ::testing::ValuesIn(decoder_cases()),
                         decoder_case_name);
INSTANTIATE_TEST_SUITE_P(Registry, XmlDecoderLabels,
                         ::testing::ValuesIn(xml_and_wcfjson_decoders()), decoder_case_name);
// A build with every XML library left out has no case here.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(XmlDecoderLabels);

}  // namespace
}  // namespace wb::test
