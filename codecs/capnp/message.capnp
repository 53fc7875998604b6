# The message dataset (generators/model.hpp), for capnp and capnp-packed.
@0x9ec10450dde05563;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("wirebench::cp");

struct Message {
  id @0 :Int32;
  messageText @1 :Text;
}
