#include "codecs/avro/write_value.hpp"

#include "codecs/codec.hpp"

namespace wb::avro {

void write_value(std::string_view library, avro_writer_t writer, avro_value_t& value,
                 std::string& out) {
  const auto check = [&](int rc, const char* what) {
    if (rc != 0) throw DecodeError(library, std::string(what) + ": " + avro_strerror());
  };
  std::size_t size = 0;
  check(avro_value_sizeof(&value, &size), "sizeof");
  out.resize(size);
  avro_writer_memory_set_dest(writer, out.data(), static_cast<int64_t>(size));
  check(avro_value_write(writer, &value), "write");
}

}  // namespace wb::avro
