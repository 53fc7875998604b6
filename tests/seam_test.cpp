// The seam (codecs/registry.def): no code outside the adapters, the registry
// and the docs names a library. A part of the project that needs one codec
// of a format asks the registry (its labels, or a WB_PICK line); one that
// names a library by hand keeps working only until that library is renamed,
// dropped or left out of a build. This scans the sources of every other part
// for the registry's library tokens in code: string literals that are a
// token, or a benchmark name or pairing made of tokens ("json/.../
// simdjson-dom", "rapidjson+pugixml"). Prose (comments, help and report
// text) may name libraries: it explains, it does not choose.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

namespace fs = std::filesystem;

// The folders scanned, under the source tree; and what in them is not.
constexpr std::string_view kScanned[] = {"cli",  "benchmarks", "wire",          "generators",
                                         "fuzz", "tools",      "codecs/common", "codecs/compress"};
// The seam's own files at codecs/ are scanned too (registry.def is the seam),
// and a format's shared code: the files of its folder, where its adapters are
// in codecs/<format>/adapters/ (a folder without one holds a format of one
// library: adapters only).
// benchmarks/standalone/ holds the libraries' own loops, outside the seam on
// purpose (a check on it); tools/tests/ the tools' tests, whose fixtures
// name what a result file holds; tools/bar.py is an experiment that slows
// one adapter's decode.
constexpr std::string_view kExempt[] = {"codecs/registry.def", "benchmarks/standalone",
                                        "tools/tests", "tools/bar.py"};

bool exempt(const fs::path& relative) {
  const std::string path = relative.generic_string();
  for (std::string_view e : kExempt)
    if (path == e || path.starts_with(std::string(e) + "/")) return true;
  return false;
}

// The library token of every codec and router line of the registry
// ("rapidjson-sax", "rapidjson+pugixml").
std::set<std::string> codec_tokens(const std::string& registry) {
  std::set<std::string> tokens;
  const std::regex codec_line(
      R"re(^ *WB_(?:JSON_|ATOM_)?(?:ENCODER|DECODER|ACCESSOR|ROUTER)\((?:\w+, )?\w+, "([^"]+)")re");
  std::istringstream lines(registry);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, codec_line)) tokens.insert(m[1]);
  return tokens;
}

// Those tokens, and each half of a pairing, but those that are also a
// format's name ("thrift", "capnp") or "reference" (the hand-written codecs).
std::set<std::string> library_tokens(const std::string& registry) {
  std::set<std::string> tokens;
  for (const std::string& token : codec_tokens(registry)) {
    std::istringstream halves(token);
    for (std::string half; std::getline(halves, half, '+');) tokens.insert(half);
  }
  const std::regex format_line(R"re(^WB_FORMAT\(\w+, "([^"]+)")re");
  std::istringstream lines(registry);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, format_line)) tokens.erase(m[1]);
  tokens.erase("reference");
  return tokens;
}

struct Hit {
  int line;
  std::string literal;
};

// The string literals of text (C++: "..."; Python and shell: "..." and
// '...') outside comments that are a token or are made of parts, split at
// '/', '+' and ':', of which one is a token.
std::vector<Hit> named_libraries(const std::string& text, bool cpp,
                                 const std::set<std::string>& tokens) {
  std::vector<Hit> hits;
  const std::regex literal(cpp ? R"re("([^"\\\n]*)")re" : R"re("([^"\\\n]*)"|'([^'\\\n]*)')re");
  const std::regex code_like(R"re([A-Za-z0-9+/:._-]+)re");
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::size_t comment = line.find(cpp ? "//" : "#");
    if (comment != std::string::npos) line.resize(comment);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), literal);
         it != std::sregex_iterator(); ++it) {
      const std::string value = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
      if (!std::regex_match(value, code_like)) continue;
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t end = value.find_first_of("/+:", start);
        const std::string part = value.substr(start, end - start);
        if (tokens.count(part)) {
          hits.push_back({number, value});
          break;
        }
        if (end == std::string::npos) break;
        start = end + 1;
      }
    }
  }
  return hits;
}

std::vector<fs::path> scanned_files() {
  std::vector<fs::path> out;
  auto add = [&](const fs::path& dir) {
    if (!fs::is_directory(dir)) return;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || exempt(fs::relative(e.path(), source_dir()))) continue;
      const std::string ext = e.path().extension().string();
      if (ext == ".cpp" || ext == ".hpp" || ext == ".py" || ext == ".sh") out.push_back(e.path());
    }
  };
  for (std::string_view dir : kScanned) add(source_dir() / dir);
  for (const auto& e : fs::directory_iterator(source_dir() / "codecs")) {
    if (e.is_regular_file() && !exempt(fs::relative(e.path(), source_dir())))
      out.push_back(e.path());
    if (!e.is_directory() || !fs::is_directory(e.path() / "adapters")) continue;
    for (const auto& f : fs::directory_iterator(e.path()))
      if (f.is_regular_file()) out.push_back(f.path());
  }
  return out;
}

TEST(Seam, ScannerFindsALibraryChosenInCode) {
  const std::set<std::string> tokens = {"simdjson-dom", "pugixml-dom-utf8", "boostjson", "pugixml"};
  const auto hits = named_libraries(
      "// simdjson-dom is fastest (a comment)\n"
      "constexpr std::string_view kFastest[] = {\"simdjson-dom\", \"pugixml-dom-utf8\",\n"
      "                                          \"boostjson+pugixml\"};\n"
      "throw std::runtime_error(\"pugixml parse error\");  // prose\n"
      "auto name = \"json/message/100/decode/simdjson-dom/from:reference\";\n",
      true, tokens);
  ASSERT_EQ(hits.size(), 4u);
  EXPECT_EQ(hits[0].line, 2);
  EXPECT_EQ(hits[1].literal, "pugixml-dom-utf8");
  EXPECT_EQ(hits[2].literal, "boostjson+pugixml");
  EXPECT_EQ(hits[3].line, 5);
  EXPECT_EQ(named_libraries("SOAP_DOM = {'pugixml': 1}  # \"boostjson\"\n", false, tokens).size(),
            1u);
}

TEST(Seam, RegistryTokensIncludeEveryCodec) {
  const std::set<std::string> tokens =
      library_tokens(read_file(source_dir() / "codecs/registry.def"));
  for (const CodecEntry& c : codecs()) {
    if (c.library != "reference" && c.library.find('+') == std::string_view::npos &&
        !find_format(c.library)) {
      EXPECT_TRUE(tokens.count(std::string(c.library))) << c.library;
    }
  }
  for (const RouterEntry& r : routers()) EXPECT_TRUE(tokens.count(std::string(r.library)));
  EXPECT_FALSE(tokens.count("library token"));  // the registry's own comment
}

TEST(Seam, NoLibraryNamedOutsideTheSeam) {
  const std::set<std::string> tokens =
      library_tokens(read_file(source_dir() / "codecs/registry.def"));
  std::size_t files = 0;
  for (const fs::path& path : scanned_files()) {
    ++files;
    const std::string ext = path.extension().string();
    for (const Hit& hit : named_libraries(read_file(path), ext == ".cpp" || ext == ".hpp", tokens))
      ADD_FAILURE() << fs::relative(path, source_dir()).generic_string() << ":" << hit.line
                    << ": \"" << hit.literal
                    << "\" names a library; ask the registry (labels or a WB_PICK line)";
  }
  EXPECT_GT(files, 50u);  // the scan found the tree
}

// A pick names a codec line of its format and role: a typo would make the
// part that asks for it fall back silently.
TEST(Seam, EveryPickNamesACodecOfTheRegistry) {
  const std::string registry = read_file(source_dir() / "codecs/registry.def");
  const std::regex pick_line(R"re(^WB_PICK\((\w+), (\w+), (encode|decode), "([^"]+)"\))re");
  std::istringstream lines(registry);
  int picks = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, pick_line)) continue;
    ++picks;
    std::string format = m[2];
    std::replace(format.begin(), format.end(), '_', '-');
    const Role role = m[3] == "encode" ? Role::encode : Role::decode;
    const std::string library = m[4];
    const Pick pick = m[1] == "validating" ? Pick::validating : Pick::field;
    EXPECT_TRUE(codec_tokens(registry).count(library)) << "a pick of no codec line: " << line;
    // A codec left out of the build is no pick (its part then falls back).
    if (find_codec(format, role, library))
      EXPECT_EQ(picked(pick, format, role), library) << line;
    else
      EXPECT_EQ(picked(pick, format, role), "") << line;
  }
  EXPECT_GT(picks, 0);
}

}  // namespace
}  // namespace wb::test
