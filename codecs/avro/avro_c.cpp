// avro: Avro's binary datum encoding through Avro C, the schema known to both
// sides (codecs/avro/*.avsc, compiled in by cmake/map_formats.cmake). One
// generic value per dataset (avro_generic_value_new), filled from and read
// into the records over Schema<T>: the .avsc lists the model's members in
// Schema<T> order, so field i of an Avro record is field i of the model.
//
// Avro C checks no length against the input before allocating: a string's
// claimed length is malloc'd before its bytes are read (2^32 claimed, 4 GiB
// asked). check_shape walks the datum against the same schema first: every
// varint at most 10 bytes, every length and count within the bytes left, no
// bytes after the datum.
#include <avro.h>

#include <cstring>
#include <string>
#include <vector>

#include "avro_schemas.hpp"
#include "codecs/avro/write_value.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"
#include "generators/model.hpp"

namespace wb::avro {
namespace {

constexpr std::string_view kFormat = "avro";
constexpr std::string_view kLibrary = token::decoder_avro_avro_c;

template <class T>
constexpr std::string_view schema_text() {
  if constexpr (std::is_same_v<T, Message>)
    return schema::k_message;
  else if constexpr (std::is_same_v<T, Airport>)
    return schema::k_airport;
  else
    return schema::k_science;
}

[[noreturn]] void fail(const std::string& what, long long offset = -1) {
  throw DecodeError(kLibrary, what, offset);
}
void check(int rc, const char* what) {
  if (rc != 0) fail(std::string(what) + ": " + avro_strerror());
}

// A schema, its generic class and one value of it, for dataset T.
template <class T>
struct Datum {
  avro_schema_t schema = nullptr;
  avro_value_iface_t* iface = nullptr;
  avro_value_t value{};
  Datum() {
    const std::string_view text = schema_text<T>();
    avro_schema_error_t error;
    if (avro_schema_from_json(text.data(), static_cast<int32_t>(text.size()), &schema, &error))
      throw std::logic_error(std::string("avro: bad built-in schema: ") + avro_strerror());
    iface = avro_generic_class_from_schema(schema);
    if (!iface || avro_generic_value_new(iface, &value))
      throw std::logic_error(std::string("avro: ") + avro_strerror());
  }
  ~Datum() {
    avro_value_decref(&value);
    avro_value_iface_decref(iface);
    avro_schema_decref(schema);
  }
  Datum(const Datum&) = delete;
  Datum& operator=(const Datum&) = delete;
};

struct Datums {
  Datum<Message> message;
  Datum<Airport> airport;
  Datum<ScienceRow> science;
  template <class T>
  Datum<T>& of() {
    if constexpr (std::is_same_v<T, Message>)
      return message;
    else if constexpr (std::is_same_v<T, Airport>)
      return airport;
    else
      return science;
  }
};

// ---------------------------------------------------------------- writing
template <class T>
void fill(avro_value_t& record, const T& r);

void set(avro_value_t& f, int32_t v) {
  check(avro_value_set_int(&f, v), "set int");
}
void set(avro_value_t& f, double v) {
  check(avro_value_set_double(&f, v), "set double");
}
void set(avro_value_t& f, DateTime v) {
  check(avro_value_set_long(&f, v.ticks), "set long");
}
void set(avro_value_t& f, const std::string& v) {
  // Avro C's string sizes count a NUL after the bytes.
  check(avro_value_set_string_len(&f, v.c_str(), v.size() + 1), "set string");
}
template <class E>
void set(avro_value_t& f, const std::vector<E>& items) {
  check(avro_value_reset(&f), "reset array");
  for (const E& e : items) {
    avro_value_t element;
    check(avro_value_append(&f, &element, nullptr), "append");
    fill(element, e);
  }
}

template <class T>
void fill(avro_value_t& record, const T& r) {
  std::size_t i = 0;
  for_each_field(r, [&](std::string_view, const auto& v) {
    avro_value_t f;
    check(avro_value_get_by_index(&record, i++, &f, nullptr), "field");
    set(f, v);
  });
}

class AvroEncoder : public EncoderFor<AvroEncoder> {
 public:
  AvroEncoder() : writer_(avro_writer_memory(nullptr, 0)) {}
  ~AvroEncoder() { avro_writer_free(writer_); }
  AvroEncoder(const AvroEncoder&) = delete;
  AvroEncoder& operator=(const AvroEncoder&) = delete;

  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    avro_value_t& feed = datums_.of<T>().value;
    check(avro_value_reset(&feed), "reset");
    avro_value_t value;
    check(avro_value_get_by_index(&feed, 0, &value, nullptr), "field value");
    set(value, rows);
    write_value(kLibrary, writer_, feed, out);
  }

 private:
  Datums datums_;
  avro_writer_t writer_;
};

// ---------------------------------------------------------------- reading
// The datum walked against the model's schema before Avro C reads it.
class Shape {
 public:
  explicit Shape(std::string_view input)
      : p_(reinterpret_cast<const unsigned char*>(input.data())), size_(input.size()) {}

  template <class T>
  void feed() {
    array<T>(true);
    if (at_ != size_) fail("bytes after the end of the datum (the adapter's check)", at_);
  }

 private:
  int64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (at_ == size_) fail("truncated varint (the adapter's check)", at_);
      const unsigned char b = p_[at_++];
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return static_cast<int64_t>((v >> 1) ^ -(v & 1));
    }
    fail("a varint longer than 10 bytes (the adapter's check)", at_);
  }
  void skip(uint64_t n, const char* what) {
    if (n > size_ - at_)
      fail(std::string(what) + " longer than the bytes left (the adapter's check)", at_);
    at_ += n;
  }
  template <class M>
  void value() {
    if constexpr (std::is_same_v<M, int32_t>) {
      const int64_t v = varint();
      // A value the model cannot hold: named with its member and row, as a
      // binder names them (Avro C would say only "out of range").
      if (v < INT32_MIN || v > INT32_MAX)
        throw DecodeError(kFormat,
                          "member " + std::string(member_) + ": " + std::to_string(v) +
                              " is out of Int32's range (row " + std::to_string(row_) + ")",
                          static_cast<long long>(at_));
    } else if constexpr (std::is_same_v<M, DateTime>) {
      varint();
    } else if constexpr (std::is_same_v<M, double>) {
      skip(8, "a double");
    } else if constexpr (std::is_same_v<M, std::string>) {
      const int64_t n = varint();
      if (n < 0) fail("a negative string length (the adapter's check)", at_);
      skip(static_cast<uint64_t>(n), "a string");
    } else {
      array<typename M::value_type>(false);
    }
  }
  template <class T>
  void record() {
    std::apply(
        [&](const auto&... f) {
          ((member_ = f.name, value<std::decay_t<decltype(T{}.*(f.member))>>()), ...);
        },
        Schema<T>::fields);
  }
  // Blocks of items: a count (negative: then a byte size), the items; 0 ends.
  // rows: the feed's own array, whose items are the rows.
  template <class T>
  void array(bool rows) {
    for (int64_t count = varint(); count != 0; count = varint()) {
      if (count < 0) {
        if (count == INT64_MIN)
          fail("an array block count out of range (the adapter's check)", at_);
        count = -count;
        varint();
      }
      // Every item takes at least one byte.
      if (static_cast<uint64_t>(count) > size_ - at_)
        fail("an array block of " + std::to_string(count) + " items in " +
                 std::to_string(size_ - at_) + " bytes (the adapter's check)",
             at_);
      for (int64_t i = 0; i < count; ++i) {
        row_ += rows;
        record<T>();
      }
    }
  }

  const unsigned char* p_;
  std::size_t size_;
  std::size_t at_ = 0;
  std::size_t row_ = 0;  // 1-based, as DecoderFor counts rows
  std::string_view member_;
};

template <class T>
void take(avro_value_t& record, T& r);

void get(avro_value_t& f, int32_t& v) {
  check(avro_value_get_int(&f, &v), "get int");
}
void get(avro_value_t& f, double& v) {
  check(avro_value_get_double(&f, &v), "get double");
}
void get(avro_value_t& f, DateTime& v) {
  check(avro_value_get_long(&f, &v.ticks), "get long");
}
void get(avro_value_t& f, std::string& v) {
  const char* s = nullptr;
  std::size_t n = 0;
  check(avro_value_get_string(&f, &s, &n), "get string");
  v.assign(s, n ? n - 1 : 0);  // n counts the NUL
}
template <class E>
void get(avro_value_t& f, std::vector<E>& items) {
  std::size_t n = 0;
  check(avro_value_get_size(&f, &n), "array size");
  items.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    avro_value_t element;
    check(avro_value_get_by_index(&f, i, &element, nullptr), "element");
    take(element, items[i]);
  }
}

template <class T>
void take(avro_value_t& record, T& r) {
  std::size_t i = 0;
  for_each_field(r, [&](std::string_view, auto& v) {
    avro_value_t f;
    check(avro_value_get_by_index(&record, i++, &f, nullptr), "field");
    get(f, v);
  });
}

class AvroDecoder : public DecoderFor<AvroDecoder> {
 public:
  AvroDecoder() : reader_(avro_reader_memory(nullptr, 0)) {}
  ~AvroDecoder() { avro_reader_free(reader_); }
  AvroDecoder(const AvroDecoder&) = delete;
  AvroDecoder& operator=(const AvroDecoder&) = delete;

  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    avro_value_t& feed = read<T>(input);
    avro_value_t value;
    check(avro_value_get_by_index(&feed, 0, &value, nullptr), "field value");
    get(value, rows);
  }
  // The datum is defined by its schema, which the payload does not carry:
  // parse-only reads it as the largest of the datasets' feeds that it is.
  std::size_t parse_only(std::string_view input) final {
    for (auto read_as : {&AvroDecoder::parse_as<ScienceRow>, &AvroDecoder::parse_as<Airport>}) try {
        return (this->*read_as)(input);
      } catch (const DecodeError&) {
      }
    return parse_as<Message>(input);
  }

 private:
  template <class T>
  std::size_t parse_as(std::string_view input) {
    avro_value_t& feed = read<T>(input);
    avro_value_t value;
    std::size_t n = 0;
    check(avro_value_get_by_index(&feed, 0, &value, nullptr), "field value");
    check(avro_value_get_size(&value, &n), "array size");
    return 1 + n;
  }
  template <class T>
  avro_value_t& read(std::string_view input) {
    Shape(input).feed<T>();
    avro_reader_memory_set_source(reader_, input.data(), static_cast<int64_t>(input.size()));
    avro_value_t& feed = datums_.of<T>().value;
    if (avro_value_read(reader_, &feed) != 0) fail(avro_strerror());
    return feed;
  }

  Datums datums_;
  avro_reader_t reader_;
};

}  // namespace
}  // namespace wb::avro

WB_DEFINE_ENCODER(avro, avro_c, wb::avro::AvroEncoder)
WB_DEFINE_DECODER(avro, avro_c, wb::avro::AvroDecoder)
