// The simdjson On-Demand decoder's static pieces: the exact double reader,
// the validating walk over a value (parse_only, and the values decode does
// not bind) and the canonical walk, in a file of its own.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "codecs/json/adapters/simdjson_ondemand_input.hpp"
#include "generators/text.hpp"

namespace wb::json {

namespace od = simdjson::ondemand;

// read_double's reading of a long token.
[[gnu::noinline]] inline simdjson::error_code reread_long(std::string_view raw, double& d) {
  const std::string_view token = OndemandInput::token_text(raw);
  const std::string_view mantissa = token.substr(0, token.find_first_of("eE"));
  if (std::count_if(mantissa.begin(), mantissa.end(),
                    [](char c) { return c >= '0' && c <= '9'; }) <= 19)
    return simdjson::SUCCESS;
  const auto exact = text::parse_double(token);
  if (!exact) return simdjson::NUMBER_ERROR;
  d = *exact;
  return simdjson::SUCCESS;
}

// get_double(), but exact: simdjson 3.0.1's On-Demand misreads a number
// of more than 19 digits after a zero integer part, 0.800000000000000000000
// as 0.00679 (simdjson issue #2093, fixed in 3.6.3). Up to 19 digits its
// answer stands; a longer token, which it has validated, is read again with
// from_chars. Inlined, as get_double() is: out of line it makes
// json/science/8100 decode 23 % slower for only 3.8 % more instructions
// (the value's iterator goes through memory).
[[gnu::always_inline]] inline simdjson::error_code read_double(od::value& v, double& d) {
  const std::string_view token = v.raw_json_token();  // before get_double() moves on
  if (auto e = v.get_double().get(d)) return e;
  // 19 characters (white space after it included) hold at most 19 digits.
  return token.size() <= 19 ? simdjson::SUCCESS : reread_long(token, d);
}

// A static walk on simdjson's exception API, as simdjson's docs write it
// (errors become simdjson_error; visit_root turns them into a DecodeError
// with the offset). As a member with an error-code check after every step,
// the same walk runs 1.7-2x slower than the library's minimal loop for only
// 7 % more instructions (callgrind).
// Returns how many values it visited (v and everything in it).
inline std::size_t ondemand_visit(od::value v, std::size_t depth, std::size_t max_depth) {
  // On-Demand itself does not bound nesting; this recursion must.
  if (depth >= max_depth) throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
  std::size_t values = 1;
  switch (od::json_type(v.type())) {
    case od::json_type::array:
      for (auto element : v.get_array())
        values += ondemand_visit(std::move(element), depth + 1, max_depth);
      return values;
    case od::json_type::object:
      for (auto member : v.get_object()) {
        od::field field(std::move(member));
        (void)std::string_view(field.unescaped_key());
        values += ondemand_visit(field.value(), depth + 1, max_depth);
      }
      return values;
    case od::json_type::number: {
      // As decode reads a double member: a number get_number() refuses
      // (an integer beyond 64 bits) but get_double() reads is a number.
      od::number n;
      if (v.get_number().get(n)) (void)double(v.get_double());
      return values;
    }
    case od::json_type::string:
      (void)std::string_view(v.get_string());
      return values;
    case od::json_type::boolean:
      (void)bool(v.get_bool());
      return values;
    case od::json_type::null:
      if (!v.is_null()) throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
      return values;
  }
  return values;
}

// Decoder::canonical (simdjson_ondemand_canonical.cpp): input's value read
// through in, as canonical text into out (codecs/json/canonical.hpp), on
// the walk ondemand_visit takes. Throws DecodeError, placed as in's errors.
bool write_ondemand_canonical(OndemandInput& in, std::string_view input, std::string& out);

}  // namespace wb::json
