# The science dataset (generators/model.hpp). Cap'n Proto has no date type:
# timestamp is the model's 100-ns ticks since 1970.
@0x83a620f5d654099a;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("wirebench::cp");

struct ScienceRow {
  partitionKey @0 :Text;
  rowKey @1 :Text;
  timestamp @2 :Int64;
  x @3 :Int32;
  y @4 :Int32;
  temp @5 :Float64;
  humidity @6 :Float64;
  pressure @7 :Float64;
  wind @8 :Float64;
}
