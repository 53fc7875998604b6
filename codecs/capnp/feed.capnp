# The root of every payload: one feed whose union says which dataset its
# rows are, so a payload decoded as another dataset is refused (a struct
# list of one type reads as any other without complaint).
@0xa05f3c651f8c3374;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("wirebench::cp");

using import "message.capnp".Message;
using import "airport.capnp".Airport;
using import "science.capnp".ScienceRow;

struct Feed {
  union {
    messages @0 :List(Message);
    airports @1 :List(Airport);
    science @2 :List(ScienceRow);
  }
}
