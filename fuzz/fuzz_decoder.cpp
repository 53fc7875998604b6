// libFuzzer target for one format (WB_FUZZ_FORMAT, set per executable by
// fuzz/CMakeLists.txt): the input goes through EVERY decoder of that format in
// the registry, parse-only and a full decode into each dataset, so one target
// covers the whole decoder family and new adapters are fuzzed without edits.
// A DecodeError is the expected answer to garbage; anything else that escapes
// (another exception, a crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/registry.hpp"

namespace {

struct Family {
  std::vector<std::unique_ptr<wb::Decoder>> decoders;
  Family() {
    for (const wb::CodecEntry* c : wb::codecs_of(WB_FUZZ_FORMAT, wb::Role::decode))
      decoders.push_back(c->make_decoder());
  }
};

template <class F>
void expect_clean(F&& f) {
  try {
    f();
  } catch (const wb::DecodeError&) {
    // A clean rejection.
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
  for (const auto& decoder : family.decoders) {
    expect_clean([&] { decoder->parse_only(input); });
    for (std::size_t kind = 0; kind < std::variant_size_v<wb::Records>; ++kind) {
      wb::Records out = wb::empty_records(static_cast<wb::DatasetKind>(kind));
      expect_clean([&] { decoder->decode(input, out); });
    }
  }
  return 0;
}
