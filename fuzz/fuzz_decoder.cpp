// libFuzzer target for one format (WB_FUZZ_FORMAT, set per executable by
// fuzz/CMakeLists.txt): the input goes through EVERY decoder of that format in
// the registry, parse-only and a full decode into each dataset, so one target
// covers the whole decoder family and new adapters are fuzzed without edits.
// A DecodeError is the expected answer to garbage; anything else that escapes
// (another exception, a crash, a sanitizer report) is a finding. So is a
// disagreement: the decoders that accept the bytes as one dataset must read
// the same records from them (doubles bit for bit, or within 1e-15 relative
// beside a decoder the registry marks inexact), or one of them misreads it;
// and one that decodes what its own parse_only() rejects. A zero-copy
// format's accessors verify and read every input too: what they read in
// place must be what the exact decoders read.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/access_fold.hpp"
#include "codecs/registry.hpp"
#include "generators/datasets.hpp"
#include "generators/record_diff.hpp"

namespace {

struct Family {
  std::vector<const wb::CodecEntry*> entries;
  std::vector<std::unique_ptr<wb::Decoder>> decoders;
  std::vector<const wb::AccessorEntry*> accessor_entries;
  std::vector<std::unique_ptr<wb::Accessor>> accessors;
  Family()
      : entries(wb::codecs_of(WB_FUZZ_FORMAT, wb::Role::decode)),
        accessor_entries(wb::accessors_of(WB_FUZZ_FORMAT)) {
    for (const wb::CodecEntry* c : entries) decoders.push_back(c->make_decoder());
    for (const wb::AccessorEntry* a : accessor_entries) accessors.push_back(a->make());
  }
};

// Whether f ran through; a DecodeError is a clean rejection.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const wb::DecodeError&) {
    return false;
  }
}

// A finding that is no crash: reported, then the process aborts so that
// libFuzzer writes the input out.
[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "==wirebench== %s\n", what.c_str());
  __builtin_trap();
}

struct Reading {
  const wb::CodecEntry* decoder;
  wb::Records records;
};

constexpr std::string_view kNulEndsStrings = "strings end at a NUL";

// Whether a string of the records holds a NUL byte.
bool has_nul(const wb::Records& records) {
  bool found = false;
  const auto scan = [&](const auto& self, const auto& value) -> void {
    using V = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<V, std::string>) {
      found = found || value.find('\0') != std::string::npos;
    } else if constexpr (wb::is_record_list<V>) {
      for (const auto& row : value)
        wb::for_each_field(row, [&](std::string_view, const auto& m) { self(self, m); });
    }
  };
  std::visit([&](const auto& rows) { scan(scan, rows); }, records);
  return found;
}

// Holds every reading to one: the first exact decoder's (the first reading
// if no exact decoder accepted the input).
void check_agreement(const std::vector<Reading>& readings, std::size_t kind) {
  if (readings.size() < 2) return;
  const Reading* reference = &readings.front();
  for (const Reading& r : readings)
    if (r.decoder->exact) {
      reference = &r;
      break;
    }
  for (const Reading& r : readings) {
    if (&r == reference) continue;
    // A decoder labelled so (protobuf-c: C strings) reads a string up to its
    // first NUL byte; its label, not a finding.
    if (wb::has_label(r.decoder->labels, kNulEndsStrings) && has_nul(reference->records)) continue;
    const auto doubles = reference->decoder->exact && r.decoder->exact ? wb::DoubleMatch::identical
                                                                       : wb::DoubleMatch::close;
    if (const auto d = wb::first_difference(reference->records, r.records, doubles))
      finding(std::string(WB_FUZZ_FORMAT) + " decoders disagree on " +
              std::string(wb::dataset_info(static_cast<wb::DatasetKind>(kind)).name) +
              " rows: " + std::string(reference->decoder->library) + " (expected), " +
              std::string(r.decoder->library) + "\n" + *d);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Decoders are reused across inputs, as the benchmarks reuse them: state
  // left behind by a bad input must not break the next one.
  static Family family;
  if (family.decoders.empty()) __builtin_trap();  // the format has no decoder: a build error
  // padded_copy gives the kInputPadding bytes every decoder may read.
  const std::string input =
      wb::padded_copy(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<char> parsed;
  for (const auto& decoder : family.decoders)
    parsed.push_back(accepted([&] { decoder->parse_only(input); }));
  for (std::size_t kind = 0; kind < std::variant_size_v<wb::Records>; ++kind) {
    std::vector<Reading> readings;
    for (std::size_t i = 0; i < family.decoders.size(); ++i) {
      wb::Records out = wb::empty_records(static_cast<wb::DatasetKind>(kind));
      if (!accepted([&] { family.decoders[i]->decode(input, out); })) continue;
      // The benchmarks divide decode by parse-only: both must read the same
      // documents, bar what binding adds.
      if (!parsed[i])
        finding(std::string(WB_FUZZ_FORMAT) + " " + std::string(family.entries[i]->library) +
                " decodes what its parse_only() rejects");
      readings.push_back({family.entries[i], std::move(out)});
    }
    check_agreement(readings, kind);
    // Verified in-place reads of the same bytes: no crash, and the values
    // of an exact decoder's reading.
    const wb::DatasetKind dataset = static_cast<wb::DatasetKind>(kind);
    for (std::size_t i = 0; i < family.accessors.size(); ++i) {
      if (dataset == wb::DatasetKind::entity) continue;
      std::uint64_t digest = 0;
      if (!accepted([&] { digest = family.accessors[i]->content_digest(input, dataset); }))
        continue;
      for (const Reading& r : readings)
        if (r.decoder->exact && wb::content_digest(r.records) != digest)
          finding(std::string(WB_FUZZ_FORMAT) + " accessor " +
                  std::string(family.accessor_entries[i]->library) + " reads other values than " +
                  std::string(r.decoder->library) + " decodes");
    }
  }
  return 0;
}
