#include "benchmarks/payloads.hpp"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <tuple>

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

PageAlignedBytes::PageAlignedBytes(std::string_view bytes) : size_(bytes.size()) {
  constexpr std::size_t kPage = 4096;
  const std::size_t capacity = (bytes.size() + kInputPadding + kPage - 1) / kPage * kPage;
  data_.reset(static_cast<char*>(std::aligned_alloc(kPage, capacity)));
  if (!data_) throw std::bad_alloc();
  std::memcpy(data_.get(), bytes.data(), bytes.size());
  std::memset(data_.get() + bytes.size(), 0, capacity - bytes.size());
}

void PageAlignedBytes::Free::operator()(char* p) const {
  std::free(p);
}

Group::Group(DatasetKind dataset, int rows) : records_(generate(dataset, rows, g_seed)) {}

const Payload& Group::payload(const CodecEntry& encoder) {
  auto [it, inserted] = payloads_.try_emplace(encoder.library);
  if (!inserted) return it->second;
  Payload& p = it->second;
  try {
    std::string out;
    encoder.make_encoder()->encode(records_, out);
    p.bytes = PageAlignedBytes(out);
  } catch (const std::exception& e) {
    p.error = std::string(encoder.library) + " failed to encode: " + e.what();
  }
  return p;
}

Group& group(std::string_view format, DatasetKind dataset, int rows) {
  static std::map<std::tuple<std::string, DatasetKind, int>, std::unique_ptr<Group>> groups;
  auto& slot = groups[{std::string(format), dataset, rows}];
  if (!slot) slot = std::make_unique<Group>(dataset, rows);
  return *slot;
}

}  // namespace wb::bench
