// An Avro C value written as its binary datum into a std::string: sized
// first (avro_value_sizeof), so the memory writer fills the string once and
// never runs out of room. Shared by the schema'd codec (avro_c.cpp) and the
// feed carrier (codecs/carriers/avro_c_generic.cpp).
#pragma once

#include <avro.h>

#include <string>
#include <string_view>

namespace wb::avro {

// Replaces out with value's datum through writer (a memory writer the caller
// owns and reuses). Throws DecodeError(library, "<step>: <avro_strerror()>").
void write_value(std::string_view library, avro_writer_t writer, avro_value_t& value,
                 std::string& out);

}  // namespace wb::avro
