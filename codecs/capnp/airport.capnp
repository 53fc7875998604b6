# The airport dataset (generators/model.hpp).
@0x8d146d7d9c4abef8;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("wirebench::cp");

struct Contact {
  firstName @0 :Text;
  lastName @1 :Text;
}

struct Airport {
  contacts @0 :List(Contact);
  latitude @1 :Float64;
  longitude @2 :Float64;
  name @3 :Text;
}
