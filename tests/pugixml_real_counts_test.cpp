// The entry counts SOURCES.md states for the real Atom payloads
// (corpus/real/atom/ under WIREBENCH_CORPUS), from a plain pugixml walk: the
// counts check the corpus, not a codec, so this uses pugixml directly (with
// the pugixml decoder's namespace resolution) instead of a registry decoder.
// The one test of the real payloads that runs without the corpus: it skips
// with the line that says what was skipped and how to run it. Named after
// pugixml, which a build without it leaves out (cmake/optional_libraries.cmake).
#include <map>
#include <string>

#include "codecs/xml/adapters/pugixml_namespaces.hpp"
#include "codecs/xml/binder.hpp"
#include "tests/real_corpus.hpp"

namespace wb::test {
namespace {

// A walk_dom "binder" that counts Atom entries at any depth.
struct EntryCounter {
  int entries = 0;
  bool start(std::string_view uri, std::string_view local) {
    if (uri == xml::kAtomNs && local == "entry") ++entries;
    return true;
  }
  bool wants_attributes() const { return false; }
  bool may_use_attribute(std::string_view) const { return false; }
  void attribute(std::string_view, std::string_view, std::string_view) {}
  void text(std::string_view) {}
  void end() {}
};

TEST(RealAtomCorpus, EntryCountsMatchSources) {
  if (!real_corpus().dir) GTEST_SKIP() << real_corpus().skip_line;
  ASSERT_TRUE(real_dir_exists("atom"));
  std::map<std::string, int> seen;
  for (const RealFile& f : load_dir("atom")) {
    pugi::xml_document doc;
    const pugi::xml_parse_result r = doc.load_buffer(f.bytes.data(), f.bytes.size());
    ASSERT_TRUE(r) << f.name << ": " << r.description() << " at byte " << r.offset;
    xml::PugiPolicy policy;
    EntryCounter counter;
    xml::walk_dom(policy, doc.document_element(), counter);
    seen[f.name] = counter.entries;
  }
  for (const auto& [name, expected] : kEntries) {
    const auto it = seen.find(name);
    if (it == seen.end())
      ADD_FAILURE() << name << " (listed in SOURCES.md) is not in " << real_dir("atom");
    else
      EXPECT_EQ(it->second, expected) << name;
  }
  for (const auto& [name, count] : seen)
    EXPECT_TRUE(kEntries.contains(name)) << name << " (" << count << " entries) has no count here";
}

}  // namespace
}  // namespace wb::test
