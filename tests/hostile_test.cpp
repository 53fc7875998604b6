// docs/hostile-input.md: every decoder x every hostile fixture of its syntax
// and format (fixtures/hostile.tsv plus the big and canary ones built at run
// time, see hostile_fixtures.hpp), in forked children (sandbox.hpp: a child runs
// case after case until one ends it) with a CPU and an address-space limit per
// case, a wall-clock backstop for a case that blocks, and no network. Passing
// means a clean DecodeError or the expected records; failing: a crash, a hang,
// a memory blow-up (a signal or std::bad_alloc: the 2 GiB limit is ~20x the
// biggest fixture), another exception, an accepted reject-fixture, wrong
// records, or any sign that a canary was read (inotify saw the file opened, or
// its marker came back).
#include <chrono>
#include <iostream>

#include "cli/sandbox.hpp"
#include "tests/hostile_fixtures.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

bool contains_marker(const Fixture& f, std::string_view text) {
  for (const std::string& m : f.markers)
    if (text.find(m) != std::string_view::npos) return true;
  return false;
}

// The child's report: a tag byte, then one line.
//   E DecodeError   D decoded as expected   d decoded, other records
//   M a marker came back in the records or the error
//   d (a parse-only case) parsed
std::string decode_in_child(const CodecEntry& codec, const Fixture& f) {
  const std::string input = padded_copy(f.bytes);
  Records records = empty_records(f.dataset);
  try {
    if (f.parse_only)
      return "d parsed (figure " + std::to_string(codec.make_decoder()->parse_only(input)) + ")";
    codec.make_decoder()->decode(input, records);
  } catch (const DecodeError& e) {
    const std::string what = e.describe();
    if (contains_marker(f, what)) return "M error names the marker: " + what;
    if (std::string_view(e.what()).empty()) return "X DecodeError without a message";
    return "E " + what;
  }
  // A marker hides in a string field; a records dump of small results is cheap.
  if (!f.markers.empty())
    for (std::size_t i = 0; i < row_count(records); ++i)
      if (const std::string row = describe_row(records, i); contains_marker(f, row))
        return "M decoded row " + row;
  const std::string rows = std::to_string(row_count(records)) + " rows";
  if (!f.expected) return "d " + rows;
  const ::testing::AssertionResult same = same_records(*f.expected, records, codec.exact);
  return same ? "D " + rows : "d " + rows + ": " + same.message();
}

struct Tally {
  int errors = 0, decodes = 0, failures = 0;
};

// Judges one run; returns an empty string when it passed.
std::string judge(const Fixture& f, const ChildResult& r, bool canary_opened, Tally& tally) {
  if (canary_opened) return "opened the canary file";
  if (r.end != ChildResult::End::exited || !r.earlier_cases.empty()) return r.describe();
  if (r.code != 0) return r.describe() + ": " + r.message;  // an exception other than DecodeError
  const char tag = r.message.empty() ? '?' : r.message[0];
  const std::string detail = r.message.size() > 2 ? r.message.substr(2) : r.message;
  if (tag == 'E') {
    if (f.expect == Expect::decode) return "rejected: " + detail;
    ++tally.errors;
    return {};
  }
  if (tag == 'D' || tag == 'd') {
    if (f.expect == Expect::reject) return "accepted (" + detail.substr(0, 300) + ")";
    if (tag == 'd' && f.expect != Expect::any) return "wrong records: " + detail.substr(0, 600);
    ++tally.decodes;
    return {};
  }
  return detail.empty() ? "no report from the child" : detail.substr(0, 600);
}

// Leniencies of the libraries, measured and documented in
// docs/hostile-input.md: these decoders accept these malformed documents (no
// crash, no hang, no memory blow-up, no file read: only a missing check).
// They are reported, not failed. If one starts to be rejected, the test fails
// so that this list stays true.
struct KnownLenient {
  std::string_view format, library, fixture;
};
constexpr std::string_view kPugixmlAccepts[] = {
    "n_char_ref_nul",           "n_char_ref_surrogate",     "n_char_ref_too_big",
    "n_doctype_after_root",     "n_duplicate_attribute",    "n_lt_in_attribute",
    "n_nul_after_root",         "n_raw_ampersand",          "n_raw_control_char",
    "n_text_after_root",        "n_undefined_entity",       "n_utf8_above_u10ffff",
    "n_utf8_byte_ff",           "n_utf8_lone_continuation", "n_utf8_overlong_3byte",
    "n_utf8_overlong_nul",      "n_utf8_overlong_slash",    "n_utf8_surrogate",
    "n_utf8_truncated_sequence"};
// RapidXML checks neither UTF-8 nor attribute names for duplicates; the
// adapter's char_data checks references and control characters, not UTF-8.
constexpr std::string_view kRapidxmlAccepts[] = {
    "n_duplicate_attribute",    "n_utf8_above_u10ffff",  "n_utf8_byte_ff",
    "n_utf8_lone_continuation", "n_utf8_overlong_3byte", "n_utf8_overlong_nul",
    "n_utf8_overlong_slash",    "n_utf8_surrogate",      "n_utf8_truncated_sequence"};
// TinyXML-2 9 checks no UTF-8 (the adapter's pre-scan checks references and
// control characters); it also takes every "<?" for an XML declaration, so a
// processing instruction inside an element (well-formed XML) is an error.
constexpr std::string_view kTinyxml2Accepts[] = {
    "n_utf8_above_u10ffff",  "n_utf8_byte_ff",           "n_utf8_lone_continuation",
    "n_utf8_overlong_3byte", "n_utf8_overlong_nul",      "n_utf8_overlong_slash",
    "n_utf8_surrogate",      "n_utf8_truncated_sequence"};
constexpr std::string_view kTinyxml2Rejects[] = {"malformed/atom/decode_message_comment_pi.xml",
                                                 "malformed/soap/decode_message_comment_pi.xml"};
// Mini-XML 3.3 decodes UTF-8 by its byte structure only (an encoded surrogate
// or a code point above U+10FFFF passes), takes character references to such
// code points, does not look for '<' in attribute values, and reads a DOCTYPE
// after the root as one more directive (it never reads a DTD).
constexpr std::string_view kMxmlAccepts[] = {"n_char_ref_surrogate", "n_char_ref_too_big",
                                             "n_doctype_after_root", "n_lt_in_attribute",
                                             "n_utf8_above_u10ffff", "n_utf8_surrogate"};
// JsonCpp and cJSON check neither UTF-8 nor control characters in strings.
constexpr std::string_view kNoUtf8CheckJsonAccepts[] = {
    "n_raw_control_char",       "n_utf8_above_u10ffff",  "n_utf8_byte_ff",
    "n_utf8_lone_continuation", "n_utf8_overlong_3byte", "n_utf8_overlong_nul",
    "n_utf8_overlong_slash",    "n_utf8_surrogate",      "n_utf8_truncated_sequence"};
// json-c's and YAJL's UTF-8 checks follow the sequences' structure only:
// overlong forms, surrogates and code points above U+10FFFF pass. json-c's
// strict mode also takes raw control characters in strings.
constexpr std::string_view kStructuralUtf8Accepts[] = {
    "n_utf8_above_u10ffff", "n_utf8_overlong_3byte", "n_utf8_overlong_nul", "n_utf8_overlong_slash",
    "n_utf8_surrogate"};
// nlohmann's BSON reader skips a document's length prefix and takes a
// string's last byte for its NUL without looking at it.
constexpr std::string_view kNlohmannBsonAccepts[] = {"built/n_bson_length_claims_2gib",
                                                     "built/n_bson_string_without_nul"};
bool known_lenient(const CodecEntry& codec, const Fixture& f) {
  if (codec.format == "bson" && codec.library == "nlohmann")
    for (std::string_view name : kNlohmannBsonAccepts)
      if (f.name == name) return true;
  const auto named = [&](std::string_view stem) {
    return f.name == "malformed/xml/" + std::string(stem) + ".xml";
  };
  // atom and atom-v2 share their decoders.
  const bool atom = codec.format.starts_with("atom");
  // libxml2 and Xerces stop reading at a NUL byte after the root element.
  if (atom && named("n_nul_after_root") &&
      (codec.library == "libxml2-dom" || codec.library == "libxml2-sax" ||
       codec.library == "xerces-dom" || codec.library == "xerces-sax"))
    return true;
  // pugixml checks structure, not characters, references or attributes.
  if (atom && codec.library == "pugixml-dom")
    for (std::string_view stem : kPugixmlAccepts)
      if (named(stem)) return true;
  // pugixml-dom-utf8 is pugixml behind a UTF-8 check: the same, but UTF-8.
  if (atom && codec.library == "pugixml-dom-utf8")
    for (std::string_view stem : kPugixmlAccepts)
      if (stem.substr(0, 7) != "n_utf8_" && named(stem)) return true;
  if (codec.library == "tinyxml2")
    for (std::string_view name : kTinyxml2Rejects)
      if (f.name == name) return true;
  if (atom && codec.library == "tinyxml2")
    for (std::string_view stem : kTinyxml2Accepts)
      if (named(stem)) return true;
  if (atom && (codec.library == "mxml-dom" || codec.library == "mxml-sax"))
    for (std::string_view stem : kMxmlAccepts)
      if (named(stem)) return true;
  const auto json_named = [&](std::string_view stem) {
    return f.name == "malformed/json/" + std::string(stem) + ".json";
  };
  if (codec.format == "json" && (codec.library == "jsoncpp" || codec.library == "cjson"))
    for (std::string_view stem : kNoUtf8CheckJsonAccepts)
      if (json_named(stem)) return true;
  if (codec.format == "json" && (codec.library == "json-c" || codec.library == "yajl")) {
    if (codec.library == "json-c" && json_named("n_raw_control_char")) return true;
    for (std::string_view stem : kStructuralUtf8Accepts)
      if (json_named(stem)) return true;
  }
  if (atom && codec.library == "rapidxml")
    for (std::string_view stem : kRapidxmlAccepts)
      if (named(stem)) return true;
  return false;
}

constexpr std::size_t kAsanMaxFixtureBytes = 8u << 20;

class Hostile : public ::testing::TestWithParam<DecoderCase> {};

TEST_P(Hostile, EveryFixture) {
  const CodecEntry& codec = *GetParam().decoder;
  const Limits limits = default_limits();
  const Canary canary;
  OpenWatch watch;
  watch.add(canary.text());
  watch.add(canary.dtd());
  // The 50 MB strings test resource limits, which the Release run judges;
  // under ASan they take nlohmann's per-character lexer past any sensible
  // limit, and their memory safety is that of the small strings.
  std::vector<std::string> left_out;
  const std::vector<Fixture> fixtures = fixtures_for(
      codec.format, canary,
      {.max_bytes = under_asan() ? kAsanMaxFixtureBytes : SIZE_MAX, .left_out = &left_out});
  for (const std::string& name : left_out)
    std::cout << "[hostile] not under ASan (judged in the Release run): " << name << "\n";
  ASSERT_FALSE(fixtures.empty());
  ASSERT_FALSE(watch.opened()) << "the canary was opened before any decoder ran";

  Tally tally;
  const auto start = std::chrono::steady_clock::now();
  // By CPU time, the measure the limit judges: on a busy machine the wall
  // time of a case says more about its neighbours than about the decoder.
  ChildResult slowest;
  std::string slowest_name;
  const auto decode = [&](std::size_t i) { return decode_in_child(codec, fixtures[i]); };
  run_cases_in_children(limits, fixtures.size(), decode, [&](std::size_t i, const ChildResult& r) {
    const Fixture& f = fixtures[i];
    const std::string failure = judge(f, r, watch.opened(), tally);
    if (r.cpu_seconds >= slowest.cpu_seconds) slowest = r, slowest_name = f.name;
    if (known_lenient(codec, f)) {
      if (failure.empty())
        ADD_FAILURE() << f.name << " is listed as a known leniency of " << codec.library
                      << " but now passes: remove it from known_lenient()";
      else
        std::cout << "[hostile] known leniency: " << codec.library << " " << f.name << ": "
                  << failure.substr(0, 120) << "\n";
    } else if (!failure.empty()) {
      ++tally.failures;
      ADD_FAILURE() << f.name << " (" << f.what << ", expect " << expect_name(f.expect)
                    << "): " << failure << " [" << r.seconds << " s, " << r.cpu_seconds
                    << " s of CPU]";
    }
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // One line per decoder for the report: counts and the slowest case, whose
  // CPU time against the limit is the margin the limit leaves.
  std::cout << "[hostile] " << codec.format << " " << codec.library << ": " << fixtures.size()
            << " fixtures, " << tally.errors << " clean errors, " << tally.decodes << " decodes, "
            << tally.failures << " failures; " << seconds << " s (slowest " << slowest_name << " "
            << slowest.cpu_seconds << " s of CPU, " << slowest.seconds << " s wall; CPU limit "
            << limits.cpu_seconds << " s)"
            << (limits.isolate_network ? "" : "; network NOT isolated (no CLONE_NEWNET)")
            << (limits.address_space ? "" : "; no address-space limit (ASan)") << "\n";
}

INSTANTIATE_TEST_SUITE_P(Registry, Hostile, ::testing::ValuesIn(distinct_decoder_cases()),
                         decoder_case_name);

}  // namespace
}  // namespace wb::test
