// The real payloads from other stacks (corpus/real/ under WIREBENCH_CORPUS,
// see its SOURCES.md), shared by the tests that read them: the folder, its
// files, and the entry counts SOURCES.md states for the Atom files.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tests/test_support.hpp"

namespace wb::test {

inline const ExternalCorpus& real_corpus() {
  static const ExternalCorpus c = external_corpus("corpus/real", "real payloads");
  return c;
}

inline std::filesystem::path real_dir(std::string_view format) {
  return *real_corpus().dir / format;
}

struct RealFile {
  std::string name;
  std::string bytes;
};

inline std::vector<RealFile> load_dir(std::string_view format) {
  std::vector<RealFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(real_dir(format)))
    if (entry.is_regular_file())
      out.push_back({entry.path().filename().string(), read_file(entry.path())});
  std::sort(out.begin(), out.end(),
            [](const RealFile& a, const RealFile& b) { return a.name < b.name; });
  return out;
}

inline ::testing::AssertionResult real_dir_exists(std::string_view format) {
  if (std::filesystem::is_directory(real_dir(format))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << real_dir(format) << " is missing: WIREBENCH_CORPUS names a folder without it";
}

// Entries per file as SOURCES.md gives them; expanded feeds count their
// inline entries too ("8 + 77" is 85).
inline const std::map<std::string, int> kEntries = {
    {"ODataJClient__Customer.xml", 2},
    {"azure-storage-python__test_storage_table.test_batch_inserts__resp2.xml", 100},
    {"azure-storage-python__test_storage_table.test_query_entities__resp3.xml", 2},
    {"odata4j__SystemQueryOptionExpand1Test.xml", 8 + 77},
    {"odata4j__SystemQueryOptionOrderByTopTest.xml", 5},
    {"odata4j__issue186_netflix_titles.xml", 1},
    {"olingo-odata2__LargeEmployeeFeed.xml", 432},
    {"olingo-odata2__ProductsFeed.xml", 9 + 9},
};

}  // namespace wb::test
