// Records to and from libprotobuf's generated messages (codecs/protobuf/
// *.proto), for every adapter over libprotobuf: the binary codecs and the
// JSON mapping. Pb<T> names a dataset's feed messages and their rows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "airport.pb.h"
#include "codecs/codec.hpp"
#include "codecs/protobuf/ticks.hpp"
#include "message.pb.h"
#include "science.pb.h"

namespace wb::protobuf {

namespace pb = ::wirebench::pb;

template <class T>
struct Pb;
template <>
struct Pb<Message> {
  using Row = pb::Message;
  using Feed = pb::MessageFeed;
  using JsonFeed = pb::MessageFeedJson;
  static auto* rows(Feed& f) { return f.mutable_messages(); }
  static const auto& rows(const Feed& f) { return f.messages(); }
};
template <>
struct Pb<Airport> {
  using Row = pb::Airport;
  using Feed = pb::AirportFeed;
  using JsonFeed = pb::AirportFeedJson;
  static auto* rows(Feed& f) { return f.mutable_airports(); }
  static const auto& rows(const Feed& f) { return f.airports(); }
};
template <>
struct Pb<ScienceRow> {
  using Row = pb::ScienceRow;
  using Feed = pb::ScienceFeed;
  using JsonFeed = pb::ScienceFeedJson;
  static auto* rows(Feed& f) { return f.mutable_science(); }
  static const auto& rows(const Feed& f) { return f.science(); }
};

inline void to_pb(DateTime t, google::protobuf::Timestamp& ts) {
  const Seconds s = to_seconds(t);
  ts.set_seconds(s.seconds);
  ts.set_nanos(s.nanos);
}

inline void to_pb(const Message& r, pb::Message& m) {
  m.set_id(r.ID);
  m.set_messagetext(r.MessageText);
}
inline void to_pb(const Airport& r, pb::Airport& m) {
  auto* contacts = m.mutable_contacts();
  contacts->Clear();
  for (const Contact& c : r.Contacts) {
    pb::Contact* pc = contacts->Add();
    pc->set_firstname(c.FirstName);
    pc->set_lastname(c.LastName);
  }
  m.set_latitude(r.Latitude);
  m.set_longitude(r.Longitude);
  m.set_name(r.Name);
}
inline void to_pb(const ScienceRow& r, pb::ScienceRow& m) {
  m.set_partitionkey(r.PartitionKey);
  m.set_rowkey(r.RowKey);
  to_pb(r.Timestamp, *m.mutable_timestamp());
  m.set_x(r.X);
  m.set_y(r.Y);
  m.set_temp(r.Temp);
  m.set_humidity(r.Humidity);
  m.set_pressure(r.Pressure);
  m.set_wind(r.Wind);
}

inline void from_pb(std::string_view, const pb::Message& m, Message& r) {
  r.ID = m.id();
  r.MessageText = m.messagetext();
}
inline void from_pb(std::string_view, const pb::Airport& m, Airport& r) {
  r.Contacts.reserve(static_cast<std::size_t>(m.contacts_size()));
  for (const pb::Contact& c : m.contacts()) r.Contacts.push_back({c.firstname(), c.lastname()});
  r.Latitude = m.latitude();
  r.Longitude = m.longitude();
  r.Name = m.name();
}
inline void from_pb(std::string_view library, const pb::ScienceRow& m, ScienceRow& r) {
  r.PartitionKey = m.partitionkey();
  r.RowKey = m.rowkey();
  r.Timestamp = from_seconds(library, m.timestamp().seconds(), m.timestamp().nanos());
  r.X = m.x();
  r.Y = m.y();
  r.Temp = m.temp();
  r.Humidity = m.humidity();
  r.Pressure = m.pressure();
  r.Wind = m.wind();
}

// The rows of a message's repeated field into out (which the caller cleared).
template <class T, class Repeated>
void rows_from_pb(std::string_view library, const Repeated& rows, std::vector<T>& out) {
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (const auto& m : rows) from_pb(library, m, out.emplace_back());
}

template <class T, class Repeated>
void rows_to_pb(const std::vector<T>& rows, Repeated& out) {
  // Clear() keeps the row objects for reuse; Add() takes them back.
  out.Clear();
  out.Reserve(static_cast<int>(rows.size()));
  for (const T& r : rows) to_pb(r, *out.Add());
}

}  // namespace wb::protobuf
