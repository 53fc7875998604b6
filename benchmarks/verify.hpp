// Correctness checks run once before a benchmark is timed.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <type_traits>

#include "codecs/codec.hpp"
#include "generators/model.hpp"

namespace wb::bench {

// Runs check, which returns nothing or "" when all is well, else why not; an
// exception is a reason too (a DecodeError with its library and offset). The
// one place for the rule that a benchmark which failed its check is not timed.
template <class F>
std::string failure_of(std::string_view library, F&& check) {
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      check();
      return {};
    } else {
      return check();
    }
  } catch (const DecodeError& e) {
    return e.describe();
  } catch (const std::exception& e) {
    return std::string(library) + ": " + e.what();
  }
}

// Relative tolerance on doubles for decoders registered with exact=false
// (e.g. RapidJSON without kParseFullPrecisionFlag is off by a few ulp).
inline constexpr double kInexactTolerance = 1e-15;

// Empty if got equals want (doubles within rel_tolerance, 0 = exactly),
// else where they first differ: "row 17: Temperature differs".
std::string diff_records(const Records& want, const Records& got, double rel_tolerance);

// Checks an encoder's payload by decoding it back with the format's exact
// decoders: empty if one of them reproduces records, else why not. checked is
// false when the format has no exact decoder to check with.
std::string check_encoded(std::string_view format, const Records& records, std::string_view payload,
                          bool& checked);

}  // namespace wb::bench
