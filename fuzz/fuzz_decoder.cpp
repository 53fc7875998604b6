// libFuzzer target for one format, named at start-up (-wb_format=F among
// libFuzzer's flags, or the environment's WIREBENCH_FUZZ_FORMAT): the input
// goes through EVERY decoder of that format in the registry, parse-only and a
// full decode into each dataset, so one run covers the whole decoder family
// and new formats and adapters are fuzzed without edits.
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
#include <cstdlib>
#include <cstring>
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

// The format under test, set once by LLVMFuzzerInitialize.
std::string fuzz_format;

struct Family {
  std::vector<const wb::CodecEntry*> entries;
  std::vector<std::unique_ptr<wb::Decoder>> decoders;
  std::vector<const wb::AccessorEntry*> accessor_entries;
  std::vector<std::unique_ptr<wb::Accessor>> accessors;
  Family()
      : entries(wb::codecs_of(fuzz_format, wb::Role::decode)),
        accessor_entries(wb::accessors_of(fuzz_format)) {
    for (const wb::CodecEntry* c : entries) decoders.push_back(c->make_decoder());
    for (const wb::AccessorEntry* a : accessor_entries) accessors.push_back(a->make());
  }
};

// The registry's formats, for an error message.
std::string format_list() {
  std::string out;
  for (std::string_view f : wb::formats()) out += (out.empty() ? "" : ", ") + std::string(f);
  return out;
}

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

// Decoders whose entity rows are their library's own reading, as their
// labels say (codecs/registry.def): cJSON's whole numbers are integers
// ("no entity rows"), JsonCpp keeps a repeated name's last place. They are
// not held to the others on that dataset.
bool own_entity_reading(const wb::CodecEntry& d) {
  return wb::has_label(d.labels, wb::label::kNoEntityRows) ||
         wb::has_label(d.labels, "repeated names keep their last place");
}

// Holds every reading to one: the first exact decoder's (the first reading
// if no exact decoder accepted the input).
void check_agreement(std::vector<Reading> readings, std::size_t kind) {
  if (static_cast<wb::DatasetKind>(kind) == wb::DatasetKind::entity)
    std::erase_if(readings, [](const Reading& r) { return own_entity_reading(*r.decoder); });
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
      finding(fuzz_format + " decoders disagree on " +
              std::string(wb::dataset_info(static_cast<wb::DatasetKind>(kind)).name) +
              " rows: " + std::string(reference->decoder->library) + " (expected), " +
              std::string(r.decoder->library) + "\n" + *d);
  }
}

}  // namespace

// Takes -wb_format=F out of the arguments (libFuzzer ignores flags it does not
// know, but a flag of ours is better not left to it), else reads
// WIREBENCH_FUZZ_FORMAT; a format without decoders ends the run at once.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  constexpr std::string_view kFlag = "-wb_format=";
  int kept = 0;
  for (int i = 0; i < *argc; ++i) {
    std::string_view arg = (*argv)[i];
    if (arg.substr(0, kFlag.size()) == kFlag)
      fuzz_format = arg.substr(kFlag.size());
    else
      (*argv)[kept++] = (*argv)[i];
  }
  *argc = kept;
  if (fuzz_format.empty())
    if (const char* env = std::getenv("WIREBENCH_FUZZ_FORMAT")) fuzz_format = env;
  if (wb::codecs_of(fuzz_format, wb::Role::decode).empty()) {
    std::fprintf(stderr, "fuzz_decoder: %s (formats: %s)\n",
                 fuzz_format.empty() ? "no format: give -wb_format=F or WIREBENCH_FUZZ_FORMAT"
                                     : ("no decoder of format '" + fuzz_format + "'").c_str(),
                 format_list().c_str());
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Decoders are reused across inputs, as the benchmarks reuse them: state
  // left behind by a bad input must not break the next one.
  static Family family;
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
        finding(fuzz_format + " " + std::string(family.entries[i]->library) +
                " decodes what its parse_only() rejects");
      readings.push_back({family.entries[i], std::move(out)});
    }
    check_agreement(readings, kind);  // a copy: the accessors below read them all
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
          finding(fuzz_format + " accessor " + std::string(family.accessor_entries[i]->library) +
                  " reads other values than " + std::string(r.decoder->library) + " decodes");
    }
  }
  return 0;
}
