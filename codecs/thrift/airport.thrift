// The airport dataset (generators/model.hpp, Airport and Contact): members in
// model order, field ids from 1, default requiredness (see message.thrift).
namespace cpp wb.thrift_gen

struct Contact {
  1: string FirstName
  2: string LastName
}

struct Airport {
  1: list<Contact> Contacts
  2: double Latitude
  3: double Longitude
  4: string Name
}

struct AirportFeed {
  1: list<Airport> value
}
