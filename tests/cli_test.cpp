// The wirebench_cli executable as a user runs it: list, encode, decode, sizes
// (output formats as documented in each command's --help).
#include <algorithm>
#include <sstream>

#include "tests/test_support.hpp"

namespace wb::test {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(std::filesystem::exists(exe_)) << exe_ << " was not built"; }
  RunResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), exe_.string());
    return run(args);
  }
  const std::filesystem::path exe_ = WB_CLI_EXE;
};

TEST_F(Cli, ListPrintsTheRegistry) {
  const RunResult r = cli({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = split_lines(r.out);
  const auto registry = codecs();
  ASSERT_EQ(lines.size(), registry.size()) << r.out;
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const CodecEntry& c = registry[i];
    EXPECT_EQ(lines[i], std::string(c.format) + (c.role == Role::encode ? " encode " : " decode ") +
                            std::string(c.library));
  }
}

TEST_F(Cli, EncodeMatchesTheGolden) {
  for (std::string_view format : formats()) {
    SCOPED_TRACE(format);
    const CodecEntry& encoder = primary_encoder(format);
    for (DatasetKind kind : all_datasets()) {
      const std::string dataset(dataset_name(kind));
      const RunResult r = cli({"encode", "--format", std::string(format), "--dataset", dataset,
                               "--rows", "3", "--library", std::string(encoder.library)});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::filesystem::path golden =
          source_dir() / "fixtures" / "golden" /
          (std::string(format) + "-" + dataset + "-3." + std::string(payload_extension(r.out)));
      ASSERT_TRUE(std::filesystem::exists(golden)) << golden << " (see generators_test.cpp)";
      EXPECT_EQ(r.out, read_file(golden)) << golden;
    }
  }
}

TEST_F(Cli, EncodeDefaultsAreDeterministic) {
  const std::string format(formats().front());
  const RunResult a = cli({"encode", "--format", format, "--dataset", "airport", "--rows", "5"});
  const RunResult b =
      cli({"encode", "--format", format, "--dataset", "airport", "--rows=5", "--seed", "42"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  const RunResult c =
      cli({"encode", "--format", format, "--dataset", "airport", "--rows", "5", "--seed", "43"});
  EXPECT_NE(a.out, c.out);
}

// Every decoder of every format through the CLI, on a payload and on its first
// half. The datasets take turns (the i-th decoder of a format decodes dataset
// i mod n), so each decoder and each dataset pass through the CLI once per
// format (a format with fewer decoders than datasets repeats them): a run is
// a process start (~0.15 s under ASan), and every decoder x
// dataset would be 300 of them, 47 s. The decoders' handling of every dataset is
// the round-trip tests' job.
TEST_F(Cli, DecodeWithEveryDecoder) {
  for (std::string_view format : formats()) {
    const CodecEntry& encoder = primary_encoder(format);
    const std::vector<DatasetKind> kinds = all_datasets();
    const auto decoders = codecs_of(format, Role::decode);
    // A format with fewer decoders than datasets runs its decoders again.
    const std::size_t runs = std::max(decoders.size(), kinds.size());
    for (std::size_t i = 0; i < runs; ++i) {
      const CodecEntry& d = *decoders[i % decoders.size()];
      const DatasetKind kind = kinds[i % kinds.size()];
      const std::string payload = encode(encoder, generate(kind, 3));
      TempFile file(".payload");
      write_file(file.path(), payload);
      TempFile truncated(".truncated");
      write_file(truncated.path(), std::string_view(payload).substr(0, payload.size() / 2));
      const std::string dataset(dataset_name(kind));
      SCOPED_TRACE(std::string(format) + " " + dataset + " " + std::string(d.library));
      const std::vector<std::string> base = {
          "decode", "--format",  std::string(format),   "--dataset",
          dataset,  "--library", std::string(d.library)};
      auto args = base;
      args.push_back(file.path().string());
      const RunResult ok = cli(args);
      EXPECT_EQ(ok.exit_code, 0) << ok.err;
      const auto lines = split_lines(ok.out);
      EXPECT_EQ(lines.size(), 3u) << ok.out;
      for (const std::string& line : lines)
        EXPECT_TRUE(line.starts_with("{") && line.ends_with("}")) << line;

      args = base;
      args.push_back(truncated.path().string());
      const RunResult bad = cli(args);
      EXPECT_EQ(bad.exit_code, 1);
      EXPECT_TRUE(bad.out.empty()) << bad.out;
      EXPECT_EQ(split_lines(bad.err).size(), 1u) << bad.err;
      EXPECT_NE(bad.err.find(d.library), std::string::npos)
          << "the error does not name the library: " << bad.err;
    }
  }
}

TEST_F(Cli, DecodersPrintTheSameLines) {
  // Canonical lines make decoders comparable with diff: every exact decoder
  // of a format prints the same text for the same payload.
  for (std::string_view format : formats()) {
    const std::string payload = encode(primary_encoder(format), generate(DatasetKind::science, 3));
    TempFile file(".payload");
    write_file(file.path(), payload);
    std::string first;
    for (const CodecEntry* d : codecs_of(format, Role::decode)) {
      if (!d->exact) continue;
      const RunResult r = cli({"decode", "--format", std::string(format), "--dataset", "science",
                               "--library", std::string(d->library), file.path().string()});
      ASSERT_EQ(r.exit_code, 0) << d->library << ": " << r.err;
      if (first.empty()) first = r.out;
      EXPECT_EQ(r.out, first) << d->library;
    }
  }
}

TEST_F(Cli, BadRequestsExitWithTwo) {
  EXPECT_EQ(cli({}).exit_code, 2);
  EXPECT_EQ(cli({"no-such-command"}).exit_code, 2);
  EXPECT_EQ(cli({"encode", "--format", "no-such-format", "--dataset", "message"}).exit_code, 2);
  EXPECT_EQ(
      cli({"encode", "--format", std::string(formats().front()), "--dataset", "nope"}).exit_code,
      2);
  EXPECT_EQ(cli({"decode", "--format", std::string(formats().front()), "--dataset", "message",
                 "/nonexistent/file"})
                .exit_code,
            2);
}

TEST_F(Cli, SizesListsEveryFormatDatasetAndSize) {
  const RunResult r = cli({"sizes"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(split_words(lines.front()),
            (std::vector<std::string>{"format", "dataset", "rows", "bytes", "bytes/row"}));
  for (std::string_view format : formats()) {
    if (codecs_of(format, Role::encode).empty()) continue;
    for (const DatasetInfo& d : kDatasets)
      for (int rows : d.sizes) {
        const std::string key =
            std::string(format) + " " + std::string(d.name) + " " + std::to_string(rows);
        SCOPED_TRACE(key);
        int found = 0;
        for (const std::string& line : lines) {
          const auto w = split_words(line);
          if (w.size() != 5 || w[0] != format || w[1] != d.name || w[2] != std::to_string(rows))
            continue;
          ++found;
          // The bytes are those of the default encoder's payload.
          const RunResult payload = cli({"encode", "--format", std::string(format), "--dataset",
                                         std::string(d.name), "--rows", std::to_string(rows)});
          EXPECT_EQ(w[3], std::to_string(payload.out.size()));
        }
        EXPECT_EQ(found, 1) << r.out;
      }
  }
}

}  // namespace
}  // namespace wb::test
