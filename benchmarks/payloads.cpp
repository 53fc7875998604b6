#include "benchmarks/payloads.hpp"

#include <exception>
#include <memory>

namespace wb::bench {
namespace {
uint64_t g_seed = kDefaultSeed;
}  // namespace

uint64_t seed() {
  return g_seed;
}
void set_seed(uint64_t seed) {
  g_seed = seed;
}

const CodecEntry* reference_encoder(std::string_view format) {
  if (const CodecEntry* ref = find_codec(format, Role::encode, "reference")) return ref;
  const auto encoders = codecs_of(format, Role::encode);
  return encoders.empty() ? nullptr : encoders.front();
}

Group::Group(std::string_view format, DatasetKind dataset, int rows)
    : format_(format), dataset_(dataset), rows_(rows), records_(generate(dataset, rows, g_seed)) {}

const Payload& Group::payload(const CodecEntry& encoder) {
  auto [it, inserted] = payloads_.try_emplace(encoder.library);
  if (!inserted) return it->second;
  Payload& p = it->second;
  try {
    std::string out;
    encoder.make_encoder()->encode(records_, out);
    p.bytes = padded_copy(out);
  } catch (const std::exception& e) {
    p.error = std::string(encoder.library) + " failed to encode: " + e.what();
  }
  return p;
}

Group& group(std::string_view format, DatasetKind dataset, int rows) {
  static std::unique_ptr<Group> current;
  if (!current || !current->is(format, dataset, rows)) {
    current.reset();  // free the previous group before building the next
    current = std::make_unique<Group>(format, dataset, rows);
  }
  return *current;
}

}  // namespace wb::bench
