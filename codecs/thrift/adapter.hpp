// Thrift's generated C++ over a TMemoryBuffer, for any protocol: the
// encoder fills the generated feed from the records and writes it; the
// decoder reads the generated feed and converts it, naming the first member
// the generated code did not set (absent, or of another wire type, which
// generated code skips). Included by one translation unit per protocol.
//
// Limits for untrusted input, per payload: the transport's TConfiguration
// (max message size = the payload, recursion depth 64) and the protocol's
// string and container limits = the payload's size. Without the container
// limit a list of structs passes the message-size check (a struct's minimum
// size is 0 bytes) and the generated code resize()s its vector to whatever
// count the list head claims; without the string limit the compact protocol
// reallocs a string's claimed length before reading it.
#pragma once

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TTransportException.h>

#include <climits>
#include <memory>
#include <string>
#include <utility>

#include "codecs/codec.hpp"
#include "codecs/thrift/fields.hpp"
#include "generators/model.hpp"

namespace wb::thrift {

using apache::thrift::TConfiguration;
using apache::thrift::transport::TMemoryBuffer;

inline constexpr int kRecursionLimit = 64;

// Calls f(model field, generated field) for each member, in schema order.
template <class T, class F>
void each_pair(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::get<I>(Schema<T>::fields), std::get<I>(Gen<T>::fields)), ...);
  }
  (std::make_index_sequence<field_count<T>>{});
}

template <class M>
void put(const M& v, M& g) {
  g = v;
}
inline void put(DateTime v, int64_t& g) {
  g = v.ticks;
}
template <class E, class G>
void put(const std::vector<E>& items, std::vector<G>& g);

template <class T>
void to_gen(const T& r, typename Gen<T>::Row& g) {
  each_pair<T>([&](const auto& mf, const auto& gf) { put(r.*(mf.member), g.*(gf.member)); });
}
template <class E, class G>
void put(const std::vector<E>& items, std::vector<G>& g) {
  g.resize(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) to_gen(items[i], g[i]);
}

template <class M>
void get(std::string_view, const M& g, M& v) {
  v = g;
}
inline void get(std::string_view, int64_t g, DateTime& v) {
  v.ticks = g;
}
template <class E, class G>
void get(std::string_view format, const std::vector<G>& g, std::vector<E>& items);

template <class T>
void from_gen(std::string_view format, const typename Gen<T>::Row& g, T& r) {
  each_pair<T>([&](const auto& mf, const auto& gf) {
    if (!gf.is_set(g))
      throw RowError(format, "member " + std::string(mf.name) +
                                 ": absent, or of another wire type (which the generated code "
                                 "skips)");
    get(format, g.*(gf.member), r.*(mf.member));
  });
}
template <class E, class G>
void get(std::string_view format, const std::vector<G>& g, std::vector<E>& items) {
  items.resize(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) from_gen(format, g[i], items[i]);
}

// Protocol: a traits struct with
//   static constexpr std::string_view kFormat, kLibrary;
//   using Type = TCompactProtocolT<TMemoryBuffer> (or the binary one);
//   static std::unique_ptr<Type> make(std::shared_ptr<TMemoryBuffer>, int32_t limit);
template <class Protocol>
class ThriftEncoder : public EncoderFor<ThriftEncoder<Protocol>> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    auto& feed = std::get<typename Gen<T>::Feed>(feeds_);
    put(rows, feed.value);
    buffer_->resetBuffer();
    feed.write(protocol_.get());
    uint8_t* bytes = nullptr;
    uint32_t size = 0;
    buffer_->getBuffer(&bytes, &size);
    out.assign(reinterpret_cast<const char*>(bytes), size);
  }

 private:
  std::shared_ptr<TMemoryBuffer> buffer_ = std::make_shared<TMemoryBuffer>();
  std::unique_ptr<typename Protocol::Type> protocol_ = Protocol::make(buffer_, 0);
  // Reused, as a service reuses its message objects.
  std::tuple<thrift_gen::MessageFeed, thrift_gen::AirportFeed, thrift_gen::ScienceFeed> feeds_;
};

template <class Protocol>
class ThriftDecoder : public DecoderFor<ThriftDecoder<Protocol>> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    auto& feed = std::get<typename Gen<T>::Feed>(feeds_);
    read(input, [&](auto& protocol) { feed.read(&protocol); });
    rows.reserve(feed.value.size());
    for (const auto& g : feed.value) from_gen(Protocol::kFormat, g, rows.emplace_back());
  }
  // Without a dataset: the first generated feed that reads the payload
  // (science, airport, message), so that whatever decode reads, parse-only
  // reads. (TProtocol::skip, the schema-less walk, refuses payloads the
  // generated code reads: a list's element type is not checked by it.)
  std::size_t parse_only(std::string_view input) final {
    try {
      return read_as<thrift_gen::ScienceFeed>(input);
    } catch (const DecodeError&) {
    }
    try {
      return read_as<thrift_gen::AirportFeed>(input);
    } catch (const DecodeError&) {
    }
    return read_as<thrift_gen::MessageFeed>(input);
  }

 private:
  template <class Feed>
  std::size_t read_as(std::string_view input) {
    return read(input, [&](auto& protocol) { std::get<Feed>(feeds_).read(&protocol); });
  }
  // Runs f over a protocol on input with the limits set; returns the bytes read.
  template <class F>
  std::size_t read(std::string_view input, F&& f) {
    if (input.size() > INT_MAX) throw DecodeError(Protocol::kLibrary, "a payload over 2 GiB");
    const auto size = static_cast<int32_t>(input.size());
    config_->setMaxMessageSize(size);
    auto buffer = std::make_shared<TMemoryBuffer>(
        reinterpret_cast<uint8_t*>(const_cast<char*>(input.data())), static_cast<uint32_t>(size),
        TMemoryBuffer::OBSERVE, config_);
    const auto protocol = Protocol::make(buffer, size);
    const auto offset = [&] { return static_cast<long long>(size - buffer->available_read()); };
    try {
      f(*protocol);
    } catch (const apache::thrift::TException& e) {
      throw DecodeError(Protocol::kLibrary, e.what(), offset());
    }
    if (buffer->available_read() != 0)
      throw DecodeError(Protocol::kLibrary, "bytes after the end of the feed", offset());
    return static_cast<std::size_t>(offset());
  }

  // The defaults are passed as values (+): make_shared takes references, and
  // Thrift declares them in the class without a definition to refer to.
  std::shared_ptr<TConfiguration> config_ =
      std::make_shared<TConfiguration>(+TConfiguration::DEFAULT_MAX_MESSAGE_SIZE,
                                       +TConfiguration::DEFAULT_MAX_FRAME_SIZE, kRecursionLimit);
  std::tuple<thrift_gen::MessageFeed, thrift_gen::AirportFeed, thrift_gen::ScienceFeed> feeds_;
};

}  // namespace wb::thrift
