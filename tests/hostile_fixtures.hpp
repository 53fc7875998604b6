// The hostile-input fixtures of one decoder: the committed small files listed
// in fixtures/hostile.tsv (tools/make_fixtures.py) plus the ones built at test
// time: the big ones (nesting 100,000 deep, 300,000 for XML and 1,000,000 for
// JSON, and a 50 MB string), the ones that
// name a canary file in the test's temp dir by absolute path, and the binary
// formats' crafted ones (binary_fixtures.hpp). A format's syntax is its
// WB_FORMAT line's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/registry.hpp"
#include "generators/model.hpp"

namespace wb::test {

enum class Expect {
  reject,  // a clean DecodeError
  decode,  // exactly the expected records
  either,  // reject, or exactly the expected records
  any,     // reject, or any records
};

struct Fixture {
  std::string name;  // the path under fixtures/, or "built/<name>"
  std::string what;
  std::string bytes;
  DatasetKind dataset = DatasetKind::message;
  Expect expect = Expect::reject;
  std::optional<Records> expected;  // decode/either: the records to compare with
  // Text that must appear neither in decoded records nor in an error: the
  // canary's content, /etc/passwd's first field.
  std::vector<std::string> markers;
  // Run through Decoder::parse_only instead of decode (its records unused).
  bool parse_only = false;
};

// Canary files in a fresh temp dir: canary.txt holds a unique marker line,
// canary.dtd declares an entity whose value is that marker. Removed by the
// destructor.
class Canary {
 public:
  Canary();
  ~Canary();
  Canary(const Canary&) = delete;
  Canary& operator=(const Canary&) = delete;
  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path text() const { return dir_ / "canary.txt"; }
  std::filesystem::path dtd() const { return dir_ / "canary.dtd"; }
  const std::string& marker() const { return marker_; }

 private:
  std::filesystem::path dir_;
  std::string marker_;
};

// Fixtures bigger than max_bytes are left out, their names put in *left_out;
// the 50 MB strings are then not even built (building and encoding one, and
// forking children from a process that holds it, is most of what the suite
// costs under ASan, which leaves them out).
struct SizeLimit {
  std::size_t max_bytes = SIZE_MAX;
  std::vector<std::string>* left_out = nullptr;  // needed when max_bytes is set
};

// Every fixture that applies to a decoder of format: committed ones whose
// scope is the format or its syntax, and the built ones; each deep one also
// as a parse-only case ("parse-only/built/<name>").
std::vector<Fixture> fixtures_for(std::string_view format, const Canary& canary,
                                  const SizeLimit& limit = {});

// A built fixture ("built/<name>") into out.
void add_built(std::vector<Fixture>& out, std::string name, std::string what, std::string bytes,
               Expect expect, std::optional<Records> expected = std::nullopt,
               DatasetKind dataset = DatasetKind::message);

std::string_view expect_name(Expect e);

}  // namespace wb::test
