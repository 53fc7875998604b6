// The wirebench_cli executable as a user runs it: list, encode, decode, sizes
// (output formats as documented in each command's --help).
#include <algorithm>
#include <sstream>

#include "codecs/compress/compressor.hpp"
#include "codecs/registry.hpp"
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
          (std::string(format) + "-" + dataset + "-3." + std::string(payload_extension(format)));
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
// i mod n), so each decoder and each dataset pass through the CLI at least
// once per format: a run is a process start (~0.15 s under ASan), and every decoder x
// dataset would be 300 of them, 47 s. The decoders' handling of every dataset is
// the round-trip tests' job.
TEST_F(Cli, DecodeWithEveryDecoder) {
  for (std::string_view format : formats()) {
    const CodecEntry& encoder = primary_encoder(format);
    const std::vector<DatasetKind> kinds = all_datasets();
    const auto decoders = codecs_of(format, Role::decode);
    // wcfjson keeps only its reference encoder in a build without Xerces-C.
    if (decoders.empty()) continue;
    // A format with fewer decoders than datasets takes turns the other way.
    for (std::size_t i = 0; i < std::max(decoders.size(), kinds.size()); ++i) {
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
  // The error alone on one line, not after a page of usage.
  const RunResult bare = cli({});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(split_lines(bare.err).size(), 1u) << bare.err;
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
  // The compressed sizes follow, one column per compressor of the registry.
  std::vector<std::string> header = {"format", "dataset", "rows", "bytes", "bytes/row"};
  for (const CompressorEntry& c : compressors()) header.emplace_back(c.name);
  ASSERT_EQ(split_words(lines.front()), header);
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
          if (w.size() != header.size() || w[0] != format || w[1] != d.name ||
              w[2] != std::to_string(rows))
            continue;
          ++found;
          // The bytes are those of the default encoder's payload, raw and compressed.
          const RunResult payload = cli({"encode", "--format", std::string(format), "--dataset",
                                         std::string(d.name), "--rows", std::to_string(rows)});
          EXPECT_EQ(w[3], std::to_string(payload.out.size()));
          std::string packed;
          for (std::size_t i = 0; i < compressors().size(); ++i) {
            compressors()[i].make()->compress(payload.out, packed);
            EXPECT_EQ(w[5 + i], std::to_string(packed.size())) << compressors()[i].name;
          }
        }
        EXPECT_EQ(found, 1) << r.out;
      }
  }
}

// What a user decodes without --library is checked: the default decoder of a
// format validates UTF-8 whenever one of its decoders does (rapidxml, once
// atom's default, copied an invalid byte through and exited 0).
TEST_F(Cli, TheDefaultDecoderValidatesUtf8) {
  const RunResult list = cli({"list", "--verbose"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  for (std::string_view format : formats()) {
    SCOPED_TRACE(format);
    const auto decoders = codecs_of(format, Role::decode);
    const bool any = std::any_of(decoders.begin(), decoders.end(), [](const CodecEntry* c) {
      return has_label(c->labels, label::kValidatesUtf8);
    });
    const CodecEntry* chosen = nullptr;
    for (const std::string& line : split_lines(list.out)) {
      const auto w = split_words(line);
      if (w.size() > 4 && w[0] == format && w[1] == "decode" && w[4] == "default")
        chosen = find_codec(format, Role::decode, w[2]);
    }
    ASSERT_NE(chosen, nullptr) << "no default decoder marked:\n" << list.out;
    if (any) {
      EXPECT_TRUE(has_label(chosen->labels, label::kValidatesUtf8)) << chosen->library;
    }
  }
}

TEST_F(Cli, DecodeWithoutLibraryRefusesInvalidUtf8) {
  for (std::string_view format : formats()) {
    const auto decoders = codecs_of(format, Role::decode);
    if (std::none_of(decoders.begin(), decoders.end(), [](const CodecEntry* c) {
          return has_label(c->labels, label::kValidatesUtf8);
        }))
      continue;  // no default can validate then
    SCOPED_TRACE(format);
    std::string payload = encode(primary_encoder(format), generate(DatasetKind::message, 3));
    const auto text = payload.find("My Message No. 1");
    ASSERT_NE(text, std::string::npos);
    payload[text] = '\xff';
    TempFile file(".payload");
    write_file(file.path(), payload);
    const RunResult r = cli(
        {"decode", "--format", std::string(format), "--dataset", "message", file.path().string()});
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
    if (format == "atom") {
      EXPECT_NE(r.err.find("invalid UTF-8"), std::string::npos) << r.err;
    }
  }
}

// 10,000,000 science rows as Atom is about 10 GB: refused up front, not
// std::bad_alloc after a minute.
TEST_F(Cli, EncodeRefusesAPayloadOverOneGiB) {
  SKIP_WITHOUT("atom.encode.reference");
  const RunResult r =
      cli({"encode", "--format", "atom", "--dataset", "science", "--rows", "10000000"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("over the 1 GiB encode writes"), std::string::npos) << r.err;
  // Below the bound the rows are written: 2,000 rows is past the 1,000-row sample.
  const RunResult small =
      cli({"encode", "--format", "atom", "--dataset", "science", "--rows", "2000"});
  EXPECT_EQ(small.exit_code, 0) << small.err;
  EXPECT_GT(small.out.size(), 1'000'000u);
}

TEST_F(Cli, HelpCommandIsTheCommandsHelp) {
  for (const char* command : {"list", "encode", "decode", "sizes", "infoset", "conformance"}) {
    SCOPED_TRACE(command);
    const RunResult help = cli({"help", command});
    const RunResult own = cli({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << help.err;
    EXPECT_EQ(help.out, own.out);
    EXPECT_NE(help.out.find(std::string("usage: wirebench ") + command), std::string::npos);
  }
}

}  // namespace
}  // namespace wb::test
