// A feed's entity rows in Thrift's compact and binary protocols with no
// generated code: the TProtocol calls the generated code would make, driven
// by the feed's schema (entity_schema.hpp) at run time:
//
//   struct Row { 1: optional <kind> c1; 2: ...; }   struct Feed { 1: list<Row> value; }
//
// A null is a field not written (optional), as the generated code leaves an
// unset optional field out. Kinds: string, i32, i64 (Edm.DateTime as i64
// ticks), double, bool. The decoder reads only payloads its encoder wrote in
// the same run, checked before timing.
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <climits>
#include <memory>

#include "codecs/carriers/carriers.hpp"

namespace wb::carry {
namespace {

using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;
constexpr std::string_view kLibrary = "thrift-protocol";

TType ttype(Kind kind) {
  switch (kind) {
    case Kind::string:
      return apache::thrift::protocol::T_STRING;
    case Kind::int32:
      return apache::thrift::protocol::T_I32;
    case Kind::int64:
    case Kind::ticks:
      return apache::thrift::protocol::T_I64;
    case Kind::float64:
      return apache::thrift::protocol::T_DOUBLE;
    case Kind::boolean:
      return apache::thrift::protocol::T_BOOL;
  }
  return apache::thrift::protocol::T_STRING;
}

struct Compact {
  static constexpr std::string_view kFormat = "thrift";
  using Type = apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>;
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer) {
    return std::make_unique<Type>(std::move(buffer));
  }
};
struct Binary {
  static constexpr std::string_view kFormat = "thrift-binary";
  using Type = apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>;
  static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer> buffer) {
    return std::make_unique<Type>(std::move(buffer), 0, 0, true, true);
  }
};

template <class Protocol>
class ProtocolEncoder : public Encoder {
 public:
  explicit ProtocolEncoder(const EntitySchema& schema) : columns_(schema.columns) {}
  void encode(const Records& records, std::string& out) override {
    const auto& rows = std::get<std::vector<EntityRow>>(records);
    auto& p = *protocol_;
    buffer_->resetBuffer();
    p.writeStructBegin("Feed");
    p.writeFieldBegin("value", apache::thrift::protocol::T_LIST, 1);
    p.writeListBegin(apache::thrift::protocol::T_STRUCT, static_cast<uint32_t>(rows.size()));
    for (const EntityRow& row : rows) {
      p.writeStructBegin("Row");
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const EntityProperty& v = row.Properties[i];
        if (is_null(v)) continue;
        const Column& c = columns_[i];
        p.writeFieldBegin("", ttype(c.kind), static_cast<int16_t>(i + 1));
        switch (c.kind) {
          case Kind::string:
            p.writeString(v.Value);
            break;
          case Kind::int32:
            p.writeI32(static_cast<int32_t>(to_int(v)));
            break;
          case Kind::int64:
            p.writeI64(to_int(v));
            break;
          case Kind::ticks:
            p.writeI64(to_ticks(v));
            break;
          case Kind::float64:
            p.writeDouble(to_double(v));
            break;
          case Kind::boolean:
            p.writeBool(v.Value == "true");
            break;
        }
        p.writeFieldEnd();
      }
      p.writeFieldStop();
      p.writeStructEnd();
    }
    p.writeListEnd();
    p.writeFieldEnd();
    p.writeFieldStop();
    p.writeStructEnd();
    uint8_t* bytes = nullptr;
    uint32_t size = 0;
    buffer_->getBuffer(&bytes, &size);
    out.assign(reinterpret_cast<const char*>(bytes), size);
  }

 private:
  std::vector<Column> columns_;
  std::shared_ptr<TMemoryBuffer> buffer_ = std::make_shared<TMemoryBuffer>();
  std::unique_ptr<typename Protocol::Type> protocol_ = Protocol::make(buffer_);
};

template <class Protocol>
class ProtocolDecoder : public Decoder {
 public:
  explicit ProtocolDecoder(const EntitySchema& schema) : columns_(schema.columns) {}
  void decode(std::string_view input, Records& out) override {
    auto* rows = std::get_if<std::vector<EntityRow>>(&out);
    if (!rows) throw DecodeError(kLibrary, "decodes entity rows only");
    rows->clear();
    read(input, rows);
  }
  std::size_t parse_only(std::string_view input) override { return read(input, nullptr) + 1; }

 private:
  // Reads the feed into rows (nullptr: reads and drops every value); returns
  // the rows read.
  std::size_t read(std::string_view input, std::vector<EntityRow>* rows) {
    if (input.size() > INT_MAX) throw DecodeError(kLibrary, "a payload over 2 GiB");
    auto buffer = std::make_shared<TMemoryBuffer>(
        reinterpret_cast<uint8_t*>(const_cast<char*>(input.data())),
        static_cast<uint32_t>(input.size()), TMemoryBuffer::OBSERVE);
    const auto protocol = Protocol::make(buffer);
    std::size_t n = 0;
    try {
      n = read_feed(*protocol, rows);
    } catch (const apache::thrift::TException& e) {
      throw DecodeError(kLibrary, e.what(),
                        static_cast<long long>(input.size() - buffer->available_read()));
    }
    return n;
  }

  std::size_t read_feed(typename Protocol::Type& p, std::vector<EntityRow>* rows) {
    std::string name;
    TType type;
    int16_t id = 0;
    std::size_t count = 0;
    p.readStructBegin(name);
    for (;;) {
      p.readFieldBegin(name, type, id);
      if (type == apache::thrift::protocol::T_STOP) break;
      if (id != 1 || type != apache::thrift::protocol::T_LIST)
        throw DecodeError(kLibrary, "a field the feed's schema does not have");
      TType element;
      uint32_t size = 0;
      p.readListBegin(element, size);
      if (rows) rows->reserve(size);
      for (uint32_t k = 0; k < size; ++k) read_row(p, rows ? &rows->emplace_back() : nullptr);
      count += size;
      p.readListEnd();
      p.readFieldEnd();
    }
    p.readStructEnd();
    return count;
  }

  // Fields come in column order; a column with no field is null.
  void read_row(typename Protocol::Type& p, EntityRow* row) {
    std::string name, s;
    TType type;
    int16_t id = 0;
    std::size_t next = 0;  // the next column to fill
    if (row) row->Properties.reserve(columns_.size());
    p.readStructBegin(name);
    for (;;) {
      p.readFieldBegin(name, type, id);
      if (type == apache::thrift::protocol::T_STOP) break;
      const auto i = static_cast<std::size_t>(id - 1);
      if (id < 1 || i >= columns_.size() || i < next || type != ttype(columns_[i].kind))
        throw DecodeError(kLibrary, "field " + std::to_string(id) + ": not the schema's");
      for (; next < i; ++next)
        if (row) put_null(*row, columns_[next]);
      const Column& c = columns_[next++];
      int32_t i32 = 0;
      int64_t i64 = 0;
      double d = 0;
      bool b = false;
      switch (c.kind) {
        case Kind::string:
          p.readString(s);
          if (row) put_string(*row, c, s);
          break;
        case Kind::int32:
          p.readI32(i32);
          if (row) put_int(*row, c, i32);
          break;
        case Kind::int64:
        case Kind::ticks:
          p.readI64(i64);
          if (row) c.kind == Kind::ticks ? put_ticks(*row, c, i64) : put_int(*row, c, i64);
          break;
        case Kind::float64:
          p.readDouble(d);
          if (row) put_double(*row, c, d);
          break;
        case Kind::boolean:
          p.readBool(b);
          if (row) put_bool(*row, c, b);
          break;
      }
      p.readFieldEnd();
    }
    for (; next < columns_.size(); ++next)
      if (row) put_null(*row, columns_[next]);
    p.readStructEnd();
  }

  std::vector<Column> columns_;
};

template <class Protocol>
Carrier protocol_carrier() {
  CarrierCodec codec{
      kLibrary, true,
      [](const EntitySchema& s) { return std::make_unique<ProtocolEncoder<Protocol>>(s); },
      [](const EntitySchema& s) { return std::make_unique<ProtocolDecoder<Protocol>>(s); }};
  return {Protocol::kFormat, {codec}, {codec}, [](const Records& rows) {
            return why_not(Protocol::kFormat, rows);
          }};
}

}  // namespace

void add_thrift_protocol(std::vector<Carrier>& out) {
  out.push_back(protocol_carrier<Compact>());
  out.push_back(protocol_carrier<Binary>());
}

}  // namespace wb::carry
