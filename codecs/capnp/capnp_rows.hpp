// Records to and from Cap'n Proto's generated readers and builders
// (codecs/capnp/*.capnp): one Feed root whose union says which dataset its
// rows are. Cp<T> names a dataset's union member; walk_row reads a row in
// place for the accessor (codecs/common/access_fold.hpp).
#pragma once

#include <capnp/message.h>

#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "feed.capnp.h"

namespace wb::capnproto {

namespace cp = ::wirebench::cp;

template <class T>
struct Cp;
template <>
struct Cp<Message> {
  static constexpr auto kWhich = cp::Feed::MESSAGES;
  static auto rows(cp::Feed::Reader f) { return f.getMessages(); }
  static auto init(cp::Feed::Builder f, unsigned n) { return f.initMessages(n); }
};
template <>
struct Cp<Airport> {
  static constexpr auto kWhich = cp::Feed::AIRPORTS;
  static auto rows(cp::Feed::Reader f) { return f.getAirports(); }
  static auto init(cp::Feed::Builder f, unsigned n) { return f.initAirports(n); }
};
template <>
struct Cp<ScienceRow> {
  static constexpr auto kWhich = cp::Feed::SCIENCE;
  static auto rows(cp::Feed::Reader f) { return f.getScience(); }
  static auto init(cp::Feed::Builder f, unsigned n) { return f.initScience(n); }
};

inline std::string_view dataset_in(cp::Feed::Which which) {
  switch (which) {
    case cp::Feed::MESSAGES:
      return "messages";
    case cp::Feed::AIRPORTS:
      return "airports";
    case cp::Feed::SCIENCE:
      return "science rows";
  }
  return "an unknown union member";
}

// std::string keeps a NUL after its bytes, which Text::Reader wants.
inline capnp::Text::Reader text(const std::string& s) {
  return capnp::Text::Reader(s.data(), s.size());
}
inline std::string_view view(capnp::Text::Reader t) {
  return std::string_view(t.begin(), t.size());
}

inline void build(const Message& r, cp::Message::Builder m) {
  m.setId(r.ID);
  m.setMessageText(text(r.MessageText));
}
inline void build(const Airport& r, cp::Airport::Builder m) {
  auto contacts = m.initContacts(static_cast<unsigned>(r.Contacts.size()));
  for (unsigned i = 0; i < contacts.size(); ++i) {
    contacts[i].setFirstName(text(r.Contacts[i].FirstName));
    contacts[i].setLastName(text(r.Contacts[i].LastName));
  }
  m.setLatitude(r.Latitude);
  m.setLongitude(r.Longitude);
  m.setName(text(r.Name));
}
inline void build(const ScienceRow& r, cp::ScienceRow::Builder m) {
  m.setPartitionKey(text(r.PartitionKey));
  m.setRowKey(text(r.RowKey));
  m.setTimestamp(r.Timestamp.ticks);
  m.setX(r.X);
  m.setY(r.Y);
  m.setTemp(r.Temp);
  m.setHumidity(r.Humidity);
  m.setPressure(r.Pressure);
  m.setWind(r.Wind);
}

inline void read(cp::Message::Reader m, Message& r) {
  r.ID = m.getId();
  r.MessageText = view(m.getMessageText());
}
inline void read(cp::Airport::Reader m, Airport& r) {
  const auto contacts = m.getContacts();
  r.Contacts.reserve(contacts.size());
  for (const auto c : contacts)
    r.Contacts.push_back({std::string(view(c.getFirstName())), std::string(view(c.getLastName()))});
  r.Latitude = m.getLatitude();
  r.Longitude = m.getLongitude();
  r.Name = view(m.getName());
}
inline void read(cp::ScienceRow::Reader m, ScienceRow& r) {
  r.PartitionKey = view(m.getPartitionKey());
  r.RowKey = view(m.getRowKey());
  r.Timestamp.ticks = m.getTimestamp();
  r.X = m.getX();
  r.Y = m.getY();
  r.Temp = m.getTemp();
  r.Humidity = m.getHumidity();
  r.Pressure = m.getPressure();
  r.Wind = m.getWind();
}

template <class Fold>
void walk_row(cp::Message::Reader m, Fold& f) {
  f.value(m.getId());
  f.text(view(m.getMessageText()));
}
template <class Fold>
void walk_row(cp::Airport::Reader m, Fold& f) {
  const auto contacts = m.getContacts();
  f.rows(contacts.size());
  for (const auto c : contacts) {
    f.text(view(c.getFirstName()));
    f.text(view(c.getLastName()));
  }
  f.value(m.getLatitude());
  f.value(m.getLongitude());
  f.text(view(m.getName()));
}
template <class Fold>
void walk_row(cp::ScienceRow::Reader m, Fold& f) {
  f.text(view(m.getPartitionKey()));
  f.text(view(m.getRowKey()));
  f.value(m.getTimestamp());
  f.value(m.getX());
  f.value(m.getY());
  f.value(m.getTemp());
  f.value(m.getHumidity());
  f.value(m.getPressure());
  f.value(m.getWind());
}

}  // namespace wb::capnproto
