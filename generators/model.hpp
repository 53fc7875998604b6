// The data model every codec binds into, and a compile-time schema of each
// record type so that codecs are written once against the schema instead of
// once per dataset.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

namespace wb {

// Edm.DateTime as 100-ns ticks since 1970-01-01T00:00:00Z (the .NET tick unit,
// so Azure's 7 fractional digits are exact). Our generators only emit whole
// milliseconds, which is what WCF's "\/Date(ms)\/" can carry.
struct DateTime {
  int64_t ticks = 0;
  bool operator==(const DateTime&) const = default;
};

struct Message {
  int32_t ID = 0;
  std::string MessageText;
  bool operator==(const Message&) const = default;
};

struct Contact {
  std::string FirstName;
  std::string LastName;
  bool operator==(const Contact&) const = default;
};

struct Airport {
  std::vector<Contact> Contacts;
  double Latitude = 0;
  double Longitude = 0;
  std::string Name;
  bool operator==(const Airport&) const = default;
};

// One Azure-table row of the 90x90 science grid.
struct ScienceRow {
  std::string PartitionKey;
  std::string RowKey;
  DateTime Timestamp;
  int32_t X = 0;
  int32_t Y = 0;
  double Temp = 0;
  double Humidity = 0;
  double Pressure = 0;
  double Wind = 0;
  bool operator==(const ScienceRow&) const = default;
};

// One property of an entity of any type (the generic `entity` dataset, which
// any OData feed decodes into). Type is the EDM type name ("Edm.Int32", a
// complex type's name, "Collection(Edm.String)", ...); Value is the text form
// (numbers as their shortest round-trip decimal, booleans "true"/"false").
// A null value has Value "" and Type "Null(T)", T being its declared type or
// Edm.String when none is known: the three strings stay the whole row, and
// an empty string stays distinct from null. Nested (complex or collection)
// values hold compact JSON text; see codecs/common/entity.hpp.
struct EntityProperty {
  std::string Name;
  std::string Type;
  std::string Value;
  bool operator==(const EntityProperty&) const = default;
};

// An entity: its properties in wire order.
struct EntityRow {
  std::vector<EntityProperty> Properties;
  bool operator==(const EntityRow&) const = default;
};

// A named member of a record: the wire name and a pointer to the member.
template <class T, class M>
struct Field {
  std::string_view name;
  M T::*member;
};
template <class T, class M>
Field(std::string_view, M T::*) -> Field<T, M>;

// Schema<T>::fields lists the members in model (natural) order, which is the
// order OData writers use. Schema<T>::type_name is the EDM/data-contract type.
template <class T>
struct Schema;

template <>
struct Schema<Message> {
  static constexpr std::string_view type_name = "Message";
  static constexpr auto fields =
      std::make_tuple(Field{"ID", &Message::ID}, Field{"MessageText", &Message::MessageText});
};

template <>
struct Schema<Contact> {
  static constexpr std::string_view type_name = "Contact";
  static constexpr auto fields = std::make_tuple(Field{"FirstName", &Contact::FirstName},
                                                 Field{"LastName", &Contact::LastName});
};

template <>
struct Schema<Airport> {
  static constexpr std::string_view type_name = "Airport";
  static constexpr auto fields =
      std::make_tuple(Field{"Contacts", &Airport::Contacts}, Field{"Latitude", &Airport::Latitude},
                      Field{"Longitude", &Airport::Longitude}, Field{"Name", &Airport::Name});
};

template <>
struct Schema<ScienceRow> {
  static constexpr std::string_view type_name = "ScienceRow";
  static constexpr auto fields = std::make_tuple(
      Field{"PartitionKey", &ScienceRow::PartitionKey}, Field{"RowKey", &ScienceRow::RowKey},
      Field{"Timestamp", &ScienceRow::Timestamp}, Field{"X", &ScienceRow::X},
      Field{"Y", &ScienceRow::Y}, Field{"Temp", &ScienceRow::Temp},
      Field{"Humidity", &ScienceRow::Humidity}, Field{"Pressure", &ScienceRow::Pressure},
      Field{"Wind", &ScienceRow::Wind});
};

template <>
struct Schema<EntityProperty> {
  static constexpr std::string_view type_name = "EntityProperty";
  static constexpr auto fields =
      std::make_tuple(Field{"Name", &EntityProperty::Name}, Field{"Type", &EntityProperty::Type},
                      Field{"Value", &EntityProperty::Value});
};

template <>
struct Schema<EntityRow> {
  static constexpr std::string_view type_name = "EntityRow";
  static constexpr auto fields = std::make_tuple(Field{"Properties", &EntityRow::Properties});
};

// Calls f(name, member) for every field of obj, in schema order.
template <class T, class F>
constexpr void for_each_field(T& obj, F&& f) {
  std::apply([&](const auto&... field) { (f(field.name, obj.*(field.member)), ...); },
             Schema<std::remove_const_t<T>>::fields);
}

// Calls f(member) for the field named key; returns false if there is none.
template <class T, class F>
constexpr bool with_field(T& obj, std::string_view key, F&& f) {
  return std::apply(
      [&](const auto&... field) {
        return ((field.name == key ? (f(obj.*(field.member)), true) : false) || ...);
      },
      Schema<std::remove_const_t<T>>::fields);
}

template <class T>
inline constexpr std::size_t field_count = std::tuple_size_v<decltype(Schema<T>::fields)>;

// Field indices in ordinal (String.CompareOrdinal) order of their names: the
// order DataContractSerializer writes members in.
template <class T>
constexpr std::array<std::size_t, field_count<T>> alphabetical_order() {
  std::array<std::string_view, field_count<T>> names{};
  std::size_t i = 0;
  std::apply([&](const auto&... field) { ((names[i++] = field.name), ...); }, Schema<T>::fields);
  std::array<std::size_t, field_count<T>> order{};
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  for (std::size_t a = 0; a < order.size(); ++a)
    for (std::size_t b = a + 1; b < order.size(); ++b)
      if (names[order[b]] < names[order[a]]) std::swap(order[a], order[b]);
  return order;
}

// Calls f(name, member) for field number index (runtime index, unrolled).
template <class T, class F>
constexpr void visit_field_at(T& obj, std::size_t index, F&& f) {
  std::size_t i = 0;
  std::apply(
      [&](const auto&... field) {
        ((i++ == index ? f(field.name, obj.*(field.member)) : void()), ...);
      },
      Schema<std::remove_const_t<T>>::fields);
}

// The datasets. Records holds the rows of any one of them.
// entity is the generic dataset: any entity type, as ordered properties.
enum class DatasetKind { message, airport, science, entity };
using Records = std::variant<std::vector<Message>, std::vector<Airport>, std::vector<ScienceRow>,
                             std::vector<EntityRow>>;

template <class T>
inline constexpr bool is_record =
    std::is_same_v<T, Message> || std::is_same_v<T, Airport> || std::is_same_v<T, ScienceRow> ||
    std::is_same_v<T, Contact> || std::is_same_v<T, EntityRow> || std::is_same_v<T, EntityProperty>;

// A member that holds a list of nested records (Airport::Contacts).
template <class M>
inline constexpr bool is_record_list = false;
template <class E>
inline constexpr bool is_record_list<std::vector<E>> = is_record<E>;

inline std::size_t row_count(const Records& r) {
  return std::visit([](const auto& v) { return v.size(); }, r);
}

}  // namespace wb
