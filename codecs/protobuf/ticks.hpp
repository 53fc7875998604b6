// The model's DateTime (100-ns ticks since 1970) as protobuf's Timestamp
// (seconds since 1970 rounded down, nanos in [0, 1e9)), for libprotobuf and
// protobuf-c alike.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "codecs/codec.hpp"

namespace wb::protobuf {

inline constexpr int64_t kTicksPerSecond = 10'000'000;

struct Seconds {
  int64_t seconds;
  int32_t nanos;
};

inline Seconds to_seconds(DateTime t) {
  int64_t seconds = t.ticks / kTicksPerSecond;
  int64_t rest = t.ticks % kTicksPerSecond;
  if (rest < 0) --seconds, rest += kTicksPerSecond;
  return {seconds, static_cast<int32_t>(rest * 100)};
}

// A Timestamp the model cannot hold (nanos outside [0, 1e9) or not whole
// ticks, seconds past the ticks' range) is a RowError of library.
inline DateTime from_seconds(std::string_view library, int64_t seconds, int32_t nanos) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / kTicksPerSecond - 1;
  if (nanos < 0 || nanos >= 1'000'000'000 || nanos % 100 != 0)
    throw RowError(library, "member Timestamp: nanos " + std::to_string(nanos) +
                                " is not a whole number of 100-ns ticks in [0, 1e9)");
  if (seconds > kMax || seconds < -kMax)
    throw RowError(library, "member Timestamp: seconds " + std::to_string(seconds) +
                                " is out of the model's range");
  return {seconds * kTicksPerSecond + nanos / 100};
}

}  // namespace wb::protobuf
