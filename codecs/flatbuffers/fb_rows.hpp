// Records to and from FlatBuffers' generated tables (codecs/flatbuffers/
// *.fbs), the Verifier with the limits set for untrusted input, and the
// in-place walk of the accessor. Fb<T> names a dataset's feed table.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "airport_generated.h"
#include "codecs/codec.hpp"
#include "codecs/tokens.hpp"
#include "message_generated.h"
#include "science_generated.h"

namespace wb::flatbuf {

namespace fb = ::wirebench::fb;
inline constexpr std::string_view kLibrary = token::decoder_flatbuffers_flatbuffers;

// The Verifier's limits, sized for the largest feed wirebench writes
// (message's 10,000 scaling rows; science's subset is 8,100): a feed is at
// most three tables a row (an airport and its two contacts) and three deep.
// They bound the work a payload of shared offsets can make the Verifier do.
inline constexpr std::size_t kMaxRows = 10'000;
inline constexpr flatbuffers::uoffset_t kMaxTables = 1 + 3 * kMaxRows;
inline constexpr flatbuffers::uoffset_t kMaxDepth = 8;

template <class T>
struct Fb;
template <>
struct Fb<Message> {
  using Feed = fb::MessageFeed;
  using FeedT = fb::MessageFeedT;
  static const char* id() { return fb::MessageFeedIdentifier(); }
};
template <>
struct Fb<Airport> {
  using Feed = fb::AirportFeed;
  using FeedT = fb::AirportFeedT;
  static const char* id() { return fb::AirportFeedIdentifier(); }
};
template <>
struct Fb<ScienceRow> {
  using Feed = fb::ScienceFeed;
  using FeedT = fb::ScienceFeedT;
  static const char* id() { return fb::ScienceFeedIdentifier(); }
};

// The root of a payload of T's feed, checked by the Verifier first when
// verify is true; throws DecodeError naming what it expected.
template <class T>
const typename Fb<T>::Feed* root(std::string_view input, bool verify) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(input.data());
  if (verify) {
    flatbuffers::Verifier::Options options;
    options.max_depth = kMaxDepth;
    options.max_tables = kMaxTables;
    flatbuffers::Verifier verifier(bytes, input.size(), options);
    if (!verifier.VerifyBuffer<typename Fb<T>::Feed>(Fb<T>::id())) {
      std::string what = "the Verifier refuses the payload as a feed '" + std::string(Fb<T>::id()) +
                         "' (out-of-bounds or misaligned offsets, a string without its NUL, "
                         "nesting past 8 or over " +
                         std::to_string(kMaxTables) + " tables)";
      if (input.size() >= 8 && !flatbuffers::BufferHasIdentifier(bytes, Fb<T>::id()))
        what = "the file identifier is '" + std::string(input.substr(4, 4)) + "', not '" +
               Fb<T>::id() + "' (a payload of another dataset?)";
      throw DecodeError(kLibrary, what);
    }
  }
  return flatbuffers::GetRoot<typename Fb<T>::Feed>(bytes);
}

inline std::string_view view(const flatbuffers::String* s) {
  return s ? std::string_view(s->data(), s->size()) : std::string_view();
}

// Calls fold on every field of every row in schema order (codecs/common/
// access_fold.hpp); the decoder's copy and the accessor's read both use it.
template <class Fold>
void walk_row(const fb::Message& m, Fold& f) {
  f.value(m.id());
  f.text(view(m.message_text()));
}
template <class Fold>
void walk_row(const fb::Airport& m, Fold& f) {
  const auto* contacts = m.contacts();
  f.rows(contacts ? contacts->size() : 0);
  if (contacts)
    for (const fb::Contact* c : *contacts) {
      f.text(view(c->first_name()));
      f.text(view(c->last_name()));
    }
  f.value(m.latitude());
  f.value(m.longitude());
  f.text(view(m.name()));
}
template <class Fold>
void walk_row(const fb::ScienceRow& m, Fold& f) {
  f.text(view(m.partition_key()));
  f.text(view(m.row_key()));
  f.value(m.timestamp());
  f.value(m.x());
  f.value(m.y());
  f.value(m.temp());
  f.value(m.humidity());
  f.value(m.pressure());
  f.value(m.wind());
}

}  // namespace wb::flatbuf

namespace wb::flatbuf {

// f.template operator()<T>() for the feed the payload's file identifier
// names (parse_only has no dataset to go by); science for any other, which
// the Verifier then refuses.
template <class F>
auto with_feed_type(std::string_view input, F&& f) {
  const std::string_view id = input.size() >= 8 ? input.substr(4, 4) : std::string_view();
  if (id == Fb<Message>::id()) return f.template operator()<Message>();
  if (id == Fb<Airport>::id()) return f.template operator()<Airport>();
  return f.template operator()<ScienceRow>();
}

// The input itself when it sits on an 8-byte boundary (as the benchmarks'
// and the tests' payloads do), else a copy that does: the Verifier checks
// every scalar's alignment in memory.
class Aligned {
 public:
  std::string_view operator()(std::string_view input) {
    if (reinterpret_cast<std::uintptr_t>(input.data()) % 8 == 0) return input;
    copy_.resize(input.size() / 8 + 1);
    std::memcpy(copy_.data(), input.data(), input.size());
    return {reinterpret_cast<const char*>(copy_.data()), input.size()};
  }

 private:
  std::vector<uint64_t> copy_;
};

}  // namespace wb::flatbuf
