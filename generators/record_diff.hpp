// Where two sets of records differ: the path of the first difference ("row 3
// .Contacts[1].FirstName") and both rows, printed so that encoding mistakes
// show (control characters and bytes >= 0x80 as \xNN). The tests check round
// trips with it, and the fuzz targets check that the decoders of one format
// that accept the same bytes read the same records from them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "generators/model.hpp"

namespace wb {

enum class DoubleMatch {
  identical,  // the same value bit for bit (-0 is not 0), any NaN matching any NaN
  close,      // within 1e-15 relative (decoders known not to round-trip exactly),
              // Edm.Double entity values too (doubles written as text)
};

// nullopt when the records are equal (every other field: operator==).
std::optional<std::string> first_difference(const Records& expected, const Records& actual,
                                            DoubleMatch doubles);

// Every field of one row, "{ID: 1, MessageText: "..."}".
std::string describe_row(const Records& records, std::size_t row);

}  // namespace wb
