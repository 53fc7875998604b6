// The model's records and the Thrift-generated structs (codecs/thrift/*.thrift,
// compiled at build time) side by side: Gen<T> names T's generated row and
// feed and lists the generated members in Schema<T>'s order, each with its
// __isset flag (a bit-field, so read through a lambda). Conversion is then
// written once over both lists (convert.hpp), not once per dataset.
#pragma once

#include <tuple>

#include "airport_types.h"
#include "generators/model.hpp"
#include "message_types.h"
#include "science_types.h"

namespace wb::thrift {

template <class G, class M, class IsSet>
struct GenField {
  M G::*member;
  IsSet is_set;
};
template <class G, class M, class IsSet>
GenField(M G::*, IsSet) -> GenField<G, M, IsSet>;

#define WB_THRIFT_FIELD(Struct, name)                                                 \
  GenField {                                                                          \
    &thrift_gen::Struct::name,                                                        \
        [](const thrift_gen::Struct& g) { return static_cast<bool>(g.__isset.name); } \
  }

template <class T>
struct Gen;

template <>
struct Gen<Message> {
  using Row = thrift_gen::Message;
  using Feed = thrift_gen::MessageFeed;
  static constexpr auto fields =
      std::make_tuple(WB_THRIFT_FIELD(Message, ID), WB_THRIFT_FIELD(Message, MessageText));
};

template <>
struct Gen<Contact> {
  using Row = thrift_gen::Contact;
  static constexpr auto fields =
      std::make_tuple(WB_THRIFT_FIELD(Contact, FirstName), WB_THRIFT_FIELD(Contact, LastName));
};

template <>
struct Gen<Airport> {
  using Row = thrift_gen::Airport;
  using Feed = thrift_gen::AirportFeed;
  static constexpr auto fields =
      std::make_tuple(WB_THRIFT_FIELD(Airport, Contacts), WB_THRIFT_FIELD(Airport, Latitude),
                      WB_THRIFT_FIELD(Airport, Longitude), WB_THRIFT_FIELD(Airport, Name));
};

template <>
struct Gen<ScienceRow> {
  using Row = thrift_gen::ScienceRow;
  using Feed = thrift_gen::ScienceFeed;
  static constexpr auto fields =
      std::make_tuple(WB_THRIFT_FIELD(ScienceRow, PartitionKey),
                      WB_THRIFT_FIELD(ScienceRow, RowKey), WB_THRIFT_FIELD(ScienceRow, Timestamp),
                      WB_THRIFT_FIELD(ScienceRow, X), WB_THRIFT_FIELD(ScienceRow, Y),
                      WB_THRIFT_FIELD(ScienceRow, Temp), WB_THRIFT_FIELD(ScienceRow, Humidity),
                      WB_THRIFT_FIELD(ScienceRow, Pressure), WB_THRIFT_FIELD(ScienceRow, Wind));
};

#undef WB_THRIFT_FIELD

}  // namespace wb::thrift
