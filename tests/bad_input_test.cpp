// Every decoder on damaged payloads: every truncation and a deterministic set
// of corrupted bytes of a small payload from one encoder of its format. The
// only acceptable outcomes are records or DecodeError: no crash (ASan builds
// catch out-of-bounds reads), no other exception. A prefix that drops a
// significant byte is an incomplete document and must be rejected; a binary
// format is cut at every byte, and a format without an end marker (protobuf:
// a feed is its rows, one after another) may read a prefix that ends
// between rows as those rows, exactly, and nothing else.
#include <algorithm>
#include <typeinfo>
#include <variant>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

constexpr int kRows = 3;
constexpr std::size_t kMaxReported = 5;
// Budgets per payload that keep all decoders of all formats well under 30 s
// (XML payloads of 3 rows are a few KB; DOM parsers cost ~1 ms on them).
constexpr std::size_t kEdgePrefixes = 48;  // every length this close to either end
constexpr std::size_t kMiddlePrefixes = 96;
constexpr std::size_t kCorruptPositions = 64;

enum class Outcome { records, decode_error, other };

struct Attempt {
  Outcome outcome;
  std::string detail;
};

Attempt try_decode(Decoder& decoder, std::string_view bytes, DatasetKind kind,
                   Records* records = nullptr) {
  const std::string padded = padded_copy(bytes);
  Records out = empty_records(kind);
  try {
    decoder.decode(padded, out);
    if (records) *records = out;
    return {Outcome::records, std::to_string(row_count(out)) + " rows"};
  } catch (const DecodeError& e) {
    if (std::string_view(e.what()).empty()) return {Outcome::other, "DecodeError without message"};
    return {Outcome::decode_error, e.describe()};
  } catch (const std::exception& e) {
    return {Outcome::other, std::string(typeid(e).name()) + ": " + e.what()};
  } catch (...) {
    return {Outcome::other, "a non-std exception"};
  }
}

Attempt try_parse_only(Decoder& decoder, std::string_view bytes) {
  const std::string padded = padded_copy(bytes);
  try {
    decoder.parse_only(padded);
    return {Outcome::records, "parsed"};
  } catch (const DecodeError& e) {
    return {Outcome::decode_error, e.describe()};
  } catch (const std::exception& e) {
    return {Outcome::other, std::string(typeid(e).name()) + ": " + e.what()};
  } catch (...) {
    return {Outcome::other, "a non-std exception"};
  }
}

// Collects failures and reports the first few, so a broken decoder does not
// print thousands of lines.
class Failures {
 public:
  void add(const std::string& what) {
    if (count_++ < kMaxReported) ADD_FAILURE() << what;
  }
  ~Failures() {
    if (count_ > kMaxReported) ADD_FAILURE() << count_ << " failures in all";
  }

 private:
  std::size_t count_ = 0;
};

std::size_t significant_length(std::string_view s) {
  const std::size_t end = s.find_last_not_of(" \t\r\n");
  return end == std::string_view::npos ? 0 : end + 1;
}

// Every decoder at every dataset, damaging one encoder's payload: the
// format's "reference" writer where it has one, else its first encoder. What
// is tested is the decoder's error path, which the bytes of the other
// encoders reach no differently; every encoder x decoder pairing is the round
// trip tests' and the fuzz target's (seeded from every encoder). Over every
// pairing, this suite's cases grew with the square of a format's libraries.
std::vector<PairCase> small_pairs() {
  std::vector<PairCase> out;
  for (std::string_view format : formats()) {
    const std::vector<const CodecEntry*> encoders = codecs_of(format, Role::encode);
    if (encoders.empty()) continue;
    const auto reference = std::find_if(encoders.begin(), encoders.end(), [](const CodecEntry* e) {
      return e->library == "reference";
    });
    const CodecEntry* encoder = reference != encoders.end() ? *reference : encoders.front();
    for (const CodecEntry* decoder : codecs_of(format, Role::decode))
      for (DatasetKind kind : all_datasets(format)) out.push_back({encoder, decoder, kind, kRows});
  }
  return out;
}

// Whether got is the first rows of want, exactly.
bool leading_rows(const Records& want, const Records& got) {
  return std::visit(
      [&](const auto& w) {
        const auto& g = std::get<std::decay_t<decltype(w)>>(got);
        return g.size() <= w.size() && std::equal(g.begin(), g.end(), w.begin());
      },
      want);
}

class BadInput : public ::testing::TestWithParam<PairCase> {
 protected:
  Records original_ = generate(GetParam().dataset, kRows);
  std::string payload_ = encode(*GetParam().encoder, original_);
  std::unique_ptr<Decoder> decoder_ = GetParam().decoder->make_decoder();
  bool binary_ = syntax_of(GetParam().encoder->format) == Syntax::binary;
};

TEST_P(BadInput, EveryTruncation) {
  const DatasetKind kind = GetParam().dataset;
  const std::size_t complete = binary_ ? payload_.size() : significant_length(payload_);
  Failures failures;
  // Every length near the start and the end (where a document looks almost
  // complete), a spread of lengths in between; every length of a binary one.
  const std::size_t size = payload_.size();
  const std::size_t stride = binary_ ? 1 : std::max<std::size_t>(1, size / kMiddlePrefixes);
  for (std::size_t n = 0; n < size;
       n += (n < kEdgePrefixes || n + kEdgePrefixes >= size) ? 1 : stride) {
    const std::string_view prefix(payload_.data(), n);
    Records rows;
    const Attempt a = try_decode(*decoder_, prefix, kind, &rows);
    if (a.outcome == Outcome::other)
      failures.add("prefix of " + std::to_string(n) + " bytes: " + a.detail);
    else if (a.outcome == Outcome::records && binary_ && !leading_rows(original_, rows))
      failures.add("prefix of " + std::to_string(n) + " of " + std::to_string(size) +
                   " bytes accepted as " + a.detail + " that are not the payload's first rows");
    else if (a.outcome == Outcome::records && n < complete && !binary_)
      failures.add("prefix of " + std::to_string(n) + " of " + std::to_string(payload_.size()) +
                   " bytes accepted as " + a.detail + "; it ends ..." +
                   std::string(prefix.substr(n < 40 ? 0 : n - 40)));
    const Attempt p = try_parse_only(*decoder_, prefix);
    if (p.outcome == Outcome::other)
      failures.add("parse_only, prefix of " + std::to_string(n) + " bytes: " + p.detail);
  }
  // The decoder object survives all of that and still works.
  EXPECT_EQ(try_decode(*decoder_, payload_, kind).outcome, Outcome::records);
}

TEST_P(BadInput, CorruptedBytes) {
  static constexpr char kValues[] = {'\0', '"', '<', '\xFF', '9', '}'};
  const DatasetKind kind = GetParam().dataset;
  const std::size_t stride = std::max<std::size_t>(1, payload_.size() / kCorruptPositions);
  Failures failures;
  std::string damaged = payload_;
  for (std::size_t i = 0; i < payload_.size(); i += stride) {
    for (char v : kValues) {
      if (payload_[i] == v) continue;
      damaged[i] = v;
      const Attempt a = try_decode(*decoder_, damaged, kind);
      if (a.outcome == Outcome::other)
        failures.add("byte " + std::to_string(i) + " set to " + std::to_string(int(v)) + ": " +
                     a.detail);
      const Attempt p = try_parse_only(*decoder_, damaged);
      if (p.outcome == Outcome::other)
        failures.add("parse_only, byte " + std::to_string(i) + " set to " + std::to_string(int(v)) +
                     ": " + p.detail);
    }
    damaged[i] = payload_[i];
  }
  // A payload of another dataset: decoders skip unknown members, so it may
  // decode to rows, but the only failure allowed is DecodeError.
  for (DatasetKind other : all_datasets()) {
    const Attempt a = try_decode(*decoder_, payload_, other);
    if (a.outcome == Outcome::other)
      failures.add("decoded as " + std::string(dataset_name(other)) + ": " + a.detail);
  }
  EXPECT_EQ(try_decode(*decoder_, payload_, kind).outcome, Outcome::records);
}

INSTANTIATE_TEST_SUITE_P(Registry, BadInput, ::testing::ValuesIn(small_pairs()), pair_case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BadInput);

}  // namespace
}  // namespace wb::test
