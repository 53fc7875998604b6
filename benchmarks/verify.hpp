// Correctness checks run once before a benchmark is timed (STYLE 3).
#pragma once

#include <string>
#include <string_view>

#include "generators/model.hpp"

namespace wb::bench {

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
