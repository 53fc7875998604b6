#include "tests/hostile_fixtures.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "tests/binary_fixtures.hpp"
#include "tests/test_support.hpp"

namespace wb::test {
namespace {

constexpr int kDeep = 100'000;
// Deeper than a stack holds one frame a level: Poco's DOM, which frees its
// tree recursively, overflowed an 8 MB stack at 300,000 elements.
constexpr int kDeeperXml = 300'000;
constexpr int kDeeperJson = 1'000'000;
constexpr std::size_t kBigString = 50u << 20;
// Replaced in a payload by the attack (an entity reference, an XInclude).
constexpr std::string_view kSlot = "SLOT-FOR-THE-ATTACK";

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

Expect parse_expect(std::string_view s) {
  if (s == "reject") return Expect::reject;
  if (s == "decode") return Expect::decode;
  if (s == "either") return Expect::either;
  if (s == "any") return Expect::any;
  throw std::runtime_error("hostile.tsv: unknown expectation '" + std::string(s) + "'");
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, '\t')) out.push_back(cell);
  return out;
}

void committed(std::string_view format, std::vector<Fixture>& out) {
  const std::filesystem::path root = source_dir() / "fixtures";
  std::ifstream in(root / "hostile.tsv");
  if (!in) throw std::runtime_error("missing fixtures/hostile.tsv (tools/make_fixtures.py)");
  const std::string by_syntax = "syntax:" + std::string(syntax_name(syntax_of(format)));
  const std::string by_format = "format:" + std::string(format);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto cells = split_tabs(line);
    if (cells.size() != 5) throw std::runtime_error("hostile.tsv: bad line: " + line);
    if (cells[1] != by_syntax && cells[1] != by_format) continue;
    Fixture f;
    f.name = cells[0];
    f.what = cells[4];
    f.bytes = read_file(root / cells[0]);
    const auto kind = dataset_by_name(cells[2]);
    if (!kind) throw std::runtime_error("hostile.tsv: unknown dataset " + cells[2]);
    f.dataset = *kind;
    f.expect = parse_expect(cells[3]);
    if (f.expect == Expect::decode || f.expect == Expect::either) f.expected = generate(*kind, 3);
    if (f.name.find("passwd") != std::string::npos) f.markers = {"root:x:0:"};
    out.push_back(std::move(f));
  }
}

Records one_message(std::string text) {
  return Records(std::vector<Message>{Message{1, std::move(text)}});
}

void add(std::vector<Fixture>& out, std::string name, std::string what, std::string bytes,
         Expect expect, std::optional<Records> expected = std::nullopt,
         std::vector<std::string> markers = {}) {
  Fixture f;
  f.name = "built/" + std::move(name);
  f.what = std::move(what);
  f.bytes = std::move(bytes);
  f.expect = expect;
  f.expected = std::move(expected);
  f.markers = std::move(markers);
  out.push_back(std::move(f));
}

// The one size rule: whether a fixture of `bytes` is kept under limit; if not,
// its name goes to *limit.left_out. The 50 MB strings ask before they are
// built, the rest once built.
bool within(const SizeLimit& limit, std::size_t bytes, std::string name) {
  if (bytes <= limit.max_bytes) return true;
  limit.left_out->push_back(std::move(name));
  return false;
}

// A 50 MB MessageText, written by the format's own primary encoder, so every
// format (a new one included) gets one. Printable ASCII with a period of 97
// bytes, so a decoder that drops or repeats a chunk is caught.
void big_string(std::string_view format, std::vector<Fixture>& out) {
  std::string text(kBigString, ' ');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('!' + i % 97 % 94);
  for (char& c : text)
    if (c == '<' || c == '&' || c == '"' || c == '\\') c = '-';  // no escapes: size stays 50 MB
  Records rows = one_message(std::move(text));
  std::string payload = encode(primary_encoder(format), rows);  // before rows is moved from
  // either: a documented size limit (libxml2's 10 MB text node without
  // XML_PARSE_HUGE) is a clean error, and bounded memory is the point.
  add(out, "either_string_50mb", "one 50 MB string", std::move(payload), Expect::either,
      std::move(rows));
}

// The payload of one message whose text is kSlot, and where kSlot sits.
std::string slot_payload(std::string_view format) {
  return encode(primary_encoder(format), one_message(std::string(kSlot)));
}

std::string replace_slot(std::string payload, std::string_view with) {
  payload.replace(payload.find(kSlot), kSlot.size(), with);
  return payload;
}

void json_built(std::string_view format, const SizeLimit& limit, std::vector<Fixture>& out) {
  add(out, "n_deep_arrays_100000", "100,000 nested arrays", repeat("[", kDeep) + repeat("]", kDeep),
      Expect::reject);
  add(out, "n_deep_objects_100000", "100,000 nested objects",
      repeat("{\"a\":", kDeep) + "1" + repeat("}", kDeep), Expect::reject);
  add(out, "n_deep_unclosed_100000", "100,000 [ never closed", repeat("[", kDeep), Expect::reject);
  add(out, "n_deep_arrays_1000000", "1,000,000 nested arrays",
      repeat("[", kDeeperJson) + repeat("]", kDeeperJson), Expect::reject);
  add(out, "n_deep_unclosed_1000000", "1,000,000 [ never closed", repeat("[", kDeeperJson),
      Expect::reject);
  if (within(limit, kBigString, "n_string_50mb_unterminated"))
    add(out, "n_string_50mb_unterminated", "a 50 MB string without its closing quote",
        "{\"value\":[{\"ID\":1,\"MessageText\":\"" + std::string(kBigString, 'x'), Expect::reject);
  // Inside a row as a member the shape does not know: skipped or rejected.
  std::string p = slot_payload(format);
  const std::size_t slot = p.find("\"" + std::string(kSlot) + "\"");
  const std::size_t member = p.rfind(',', slot) == std::string::npos ? slot : p.rfind('{', slot);
  if (slot != std::string::npos && member != std::string::npos) {
    p.insert(member + 1, "\"Deep\":" + repeat("[", kDeep) + repeat("]", kDeep) + ",");
    add(out, "either_deep_unknown_member_100000", "100,000 nested arrays in an unknown member",
        replace_slot(p, "text"), Expect::either, one_message("text"));
  }
}

// The root element's name and where a DOCTYPE may go (after the declaration).
std::pair<std::string, std::size_t> root_of(const std::string& xml) {
  std::size_t at = 0;
  if (xml.starts_with("<?xml")) at = xml.find("?>") + 2;
  const std::size_t open = xml.find('<', at);
  const std::size_t name_end = xml.find_first_of(" />", open);
  return {xml.substr(open + 1, name_end - open - 1), at};
}

std::string with_doctype(const std::string& xml, std::string_view rest) {
  const auto [root, at] = root_of(xml);
  std::string out = xml;
  out.insert(at, "<!DOCTYPE " + root + " " + std::string(rest) + ">");
  return out;
}

void xml_built(std::string_view format, const Canary& canary, std::vector<Fixture>& out) {
  add(out, "n_deep_elements_100000", "100,000 nested elements",
      repeat("<a>", kDeep) + repeat("</a>", kDeep), Expect::reject);
  add(out, "n_deep_unclosed_100000", "100,000 elements never closed", repeat("<a>", kDeep),
      Expect::reject);
  add(out, "n_deep_elements_300000", "300,000 nested elements",
      repeat("<a>", kDeeperXml) + repeat("</a>", kDeeperXml), Expect::reject);
  add(out, "n_deep_unclosed_300000", "300,000 elements never closed", repeat("<a>", kDeeperXml),
      Expect::reject);
  // End tags where they are not markup must not hide the nesting from a depth
  // guard (RapidXML overflows its stack at this depth).
  add(out, "n_deep_elements_after_end_tags_in_a_comment",
      "100,000 end tags in a comment, then 100,000 nested elements",
      "<r><!--" + repeat("</a>", kDeep) + "-->" + repeat("<a>", kDeep) + repeat("</a>", kDeep) +
          "</r>",
      Expect::reject);
  add(out, "n_deep_elements_after_end_tags_in_an_attribute",
      "100,000 end tags in an attribute value, then 100,000 nested elements",
      "<r><b x='" + repeat("</a>", kDeep) + "'/>" + repeat("<a>", kDeep) + repeat("</a>", kDeep) +
          "</r>",
      Expect::reject);
  const std::string p = slot_payload(format);
  // Before the element that holds the slot: an unknown property 100,000 deep.
  {
    std::string deep = replace_slot(p, "text");
    const std::size_t text_at = deep.find(">text<");
    const std::size_t elem = deep.rfind('<', text_at);
    deep.insert(elem, "<Deep xmlns=\"urn:wirebench:unknown\">" + repeat("<x>", kDeep) +
                          repeat("</x>", kDeep) + "</Deep>");
    add(out, "either_deep_unknown_element_100000", "100,000 nested elements in an unknown property",
        std::move(deep), Expect::either, one_message("text"));
  }
  const std::string txt = "file://" + canary.text().string();
  const std::string dtd = "file://" + canary.dtd().string();
  const std::vector<std::string> markers = {canary.marker()};
  add(out, "any_external_entity_file_canary", "external entity: file:// URL of the canary",
      replace_slot(with_doctype(p, "[<!ENTITY xxe SYSTEM \"" + txt + "\">]"), "&xxe;"), Expect::any,
      std::nullopt, markers);
  add(out, "any_external_entity_path_canary", "external entity: plain path of the canary",
      replace_slot(with_doctype(p, "[<!ENTITY xxe SYSTEM \"" + canary.text().string() + "\">]"),
                   "&xxe;"),
      Expect::any, std::nullopt, markers);
  add(out, "either_external_dtd_file_canary", "DOCTYPE SYSTEM file:// (a DTD that must not load)",
      replace_slot(with_doctype(p, "SYSTEM \"" + dtd + "\""), "text"), Expect::either,
      one_message("text"), markers);
  add(out, "any_external_dtd_entity_canary", "an entity the external DTD would declare",
      replace_slot(with_doctype(p, "SYSTEM \"" + dtd + "\""), "&leak;"), Expect::any, std::nullopt,
      markers);
  add(out, "any_parameter_entity_file_canary", "external parameter entity: file:// canary DTD",
      replace_slot(with_doctype(p, "[<!ENTITY % p SYSTEM \"" + dtd + "\"> %p;]"), "&leak;"),
      Expect::any, std::nullopt, markers);
  add(out, "any_xinclude_canary", "XInclude of the canary as text",
      replace_slot(p, "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"" + txt +
                          "\" parse=\"text\"/>"),
      Expect::any, std::nullopt, markers);
}

}  // namespace

Canary::Canary() {
  std::string templ = (std::filesystem::temp_directory_path() / "wirebench-canary-XXXXXX").string();
  if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = templ;
  marker_ = "WIREBENCH-CANARY-" + std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  write_file(text(), marker_ + "\n");
  write_file(dtd(), "<!ENTITY leak \"" + marker_ + "\">\n");
}

Canary::~Canary() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void add_built(std::vector<Fixture>& out, std::string name, std::string what, std::string bytes,
               Expect expect, std::optional<Records> expected, DatasetKind dataset) {
  add(out, std::move(name), std::move(what), std::move(bytes), expect, std::move(expected));
  out.back().dataset = dataset;
}

std::vector<Fixture> fixtures_for(std::string_view format, const Canary& canary,
                                  const SizeLimit& limit) {
  std::vector<Fixture> out;
  committed(format, out);
  switch (syntax_of(format)) {
    case Syntax::json:
      json_built(format, limit, out);
      break;
    case Syntax::xml:
      xml_built(format, canary, out);
      break;
    case Syntax::binary:
      binary_built(format, out);
      break;
  }
  if (within(limit, kBigString, "either_string_50mb")) big_string(format, out);
  std::erase_if(out, [&](const Fixture& f) { return !within(limit, f.bytes.size(), f.name); });
  // Parse-only is the benchmarks' other way into a library, and a tree the
  // decode never walks is still built and freed there. A well-formed deep
  // document may parse (a library without a depth limit that neither recurses
  // nor blows up builds it whole); an unclosed one is refused.
  for (std::size_t i = 0, built = out.size(); i < built; ++i) {
    if (out[i].name.find("_deep_") == std::string::npos) continue;
    Fixture p = out[i];
    p.name = "parse-only/" + p.name;
    p.parse_only = true;
    p.expect = p.name.find("_unclosed_") == std::string::npos ? Expect::any : Expect::reject;
    p.expected.reset();
    out.push_back(std::move(p));
  }
  return out;
}

std::string_view expect_name(Expect e) {
  switch (e) {
    case Expect::reject:
      return "reject";
    case Expect::decode:
      return "decode";
    case Expect::either:
      return "either";
    case Expect::any:
      return "any";
  }
  return "?";
}

}  // namespace wb::test
