// codecs/xml/char_data.hpp: the RapidXML decoder's text and attribute values.
// Its scan skips eight plain bytes at a time, so every special byte is tried
// at every position of a word and of a run longer than a word; the expected
// values are built beside the input from the XML 1.0 rules, not by the code.
#include "codecs/xml/char_data.hpp"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/test_support.hpp"

namespace wb::xml {
namespace {

std::string_view run(std::string_view raw, CharData kind, std::string& scratch) {
  return char_data(raw, kind, scratch, "test", 0);
}

// One piece of raw input and what it becomes in text / CDATA / attributes
// (nullptr: a clean error).
struct Piece {
  const char* raw;
  const char* text;
  const char* cdata;
  const char* attribute;
};
constexpr Piece kPieces[] = {
    {"a", "a", "a", "a"},
    {"\xc3\xa9", "\xc3\xa9", "\xc3\xa9", "\xc3\xa9"},  // UTF-8 passes through
    {"&amp;", "&", "&amp;", "&"},
    {"&lt;", "<", "&lt;", "<"},
    {"&#x41;", "A", "&#x41;", "A"},
    {"&#233;", "\xc3\xa9", "&#233;", "\xc3\xa9"},
    {"\r\n", "\n", "\n", " "},
    {"\r", "\n", "\n", " "},
    {"\n", "\n", "\n", " "},
    {"\t", "\t", "\t", " "},
    {"<", "<", "<", nullptr},
    {">", ">", ">", ">"},
    {"&bogus;", nullptr, "&bogus;", nullptr},
    {"& ", nullptr, "& ", nullptr},
    {"\x01", nullptr, nullptr, nullptr},
    {"\x1f", nullptr, nullptr, nullptr},
};

const char* expected(const Piece& p, CharData kind) {
  return kind == CharData::text ? p.text : kind == CharData::cdata ? p.cdata : p.attribute;
}

TEST(CharData, EverySpecialAtEveryOffset) {
  std::string scratch;
  for (const CharData kind : {CharData::text, CharData::cdata, CharData::attribute})
    for (const Piece& p : kPieces)
      for (std::size_t before = 0; before <= 33; ++before)
        for (const std::size_t after : {0, 1, 7, 8, 9, 15, 16, 17, 40}) {
          const std::string raw = std::string(before, 'x') + p.raw + std::string(after, 'y');
          SCOPED_TRACE(testing::Message()
                       << "kind " << static_cast<int>(kind) << " raw '" << raw << "'");
          const char* want = expected(p, kind);
          if (!want) {
            EXPECT_THROW(run(raw, kind, scratch), DecodeError);
            continue;
          }
          EXPECT_EQ(run(raw, kind, scratch),
                    std::string(before, 'x') + want + std::string(after, 'y'));
        }
}

// Random mixtures: several specials per value, at random alignments.
TEST(CharData, RandomMixturesMatchTheRules) {
  std::mt19937_64 rng(20261130);
  std::string scratch;
  for (const CharData kind : {CharData::text, CharData::cdata, CharData::attribute})
    for (int n = 0; n < 20'000; ++n) {
      std::string raw, want;
      bool fails = false;
      const int pieces = static_cast<int>(rng() % 12);
      for (int k = 0; k < pieces; ++k) {
        // Mostly plain runs, so that the fast path is taken between specials.
        if (rng() % 2) {
          const std::string plain(rng() % 19, static_cast<char>('a' + rng() % 26));
          raw += plain;
          want += plain;
          continue;
        }
        const Piece& p = kPieces[rng() % std::size(kPieces)];
        // A CR then an LF from the next piece is one line end, not two.
        if (!raw.empty() && raw.back() == '\r' && p.raw[0] == '\n') continue;
        raw += p.raw;
        if (const char* w = expected(p, kind))
          want += w;
        else
          fails = true;
      }
      SCOPED_TRACE(testing::Message()
                   << "kind " << static_cast<int>(kind) << " raw '" << raw << "'");
      if (fails)
        EXPECT_THROW(run(raw, kind, scratch), DecodeError);
      else
        EXPECT_EQ(run(raw, kind, scratch), want);
    }
}

TEST(CharData, ReportsTheOffsetOfTheFault) {
  std::string scratch;
  for (std::size_t at = 0; at < 20; ++at) {
    const std::string raw = std::string(at, 'x') + "\x02" + "tail";
    try {
      char_data(raw, CharData::text, scratch, "test", 100);
      ADD_FAILURE() << "accepted a control character at " << at;
    } catch (const DecodeError& e) {
      EXPECT_EQ(e.offset(), static_cast<long long>(100 + at)) << e.what();
    }
  }
}

// SpecialBytes marks '&', '<', '>', quotes and C0 controls with 64-byte SIMD loops (AVX2, SSE2) and
// a byte loop for the tail: every range of documents of every length around those steps, with one
// or two special bytes anywhere, against a count made here, bit by bit. It passes exactly the
// values without '&', '<' or a C0 control, and char_data() leaves those alone in every kind.
TEST(SpecialBytes, FindsEverySpecialByteInEveryRange) {
  const std::string specials("&<>\"'\x00\x01\t\n\r\x1f", 11);
  const std::string changing("&<\x00\x01\t\n\r\x1f", 8);  // the rest: markup values keep
  std::mt19937 random(7);
  std::string scratch;
  for (const auto loop :
       {SpecialBytes::Loop::widest, SpecialBytes::Loop::sse2, SpecialBytes::Loop::bytes})
    for (std::size_t size : {1, 15, 16, 63, 64, 65, 127, 128, 129, 200}) {
      for (int trial = 0; trial < 12; ++trial) {
        std::string doc(size, 'x');
        for (char& c : doc) c = "ab \x7f\x80\xe9>;#"[random() % 9];
        const int marks = trial % 3;  // none, one, two
        for (int m = 0; m < marks; ++m) doc[random() % size] = specials[random() % specials.size()];
        SpecialBytes bytes;
        bytes.scan(doc, loop);
        std::vector<std::size_t> marked, want_marked;
        for (std::size_t i = 0; i < 64 * bytes.words().size(); ++i)
          if (bytes.words()[i / 64] >> (i % 64) & 1) marked.push_back(i);
        for (std::size_t i = 0; i < size; ++i)
          if (specials.find(doc[i]) != std::string::npos) want_marked.push_back(i);
        ASSERT_EQ(marked, want_marked) << "size " << size;
        for (std::size_t from = 0; from < size; ++from)
          for (std::size_t to = from; to <= size; ++to) {
            const std::string_view v(doc.data() + from, to - from);
            const bool want = v.find_first_of(changing) == std::string_view::npos;
            ASSERT_EQ(bytes.unchanged(v), want)
                << "size " << size << " [" << from << ", " << to << ")";
            if (!want) continue;
            for (const CharData kind : {CharData::text, CharData::cdata, CharData::attribute})
              ASSERT_EQ(run(v, kind, scratch).data(), v.data());
          }
      }
    }
}

}  // namespace
}  // namespace wb::xml
