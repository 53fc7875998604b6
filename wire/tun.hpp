#pragma once

#include <string>

#include "wire/fd.hpp"

namespace wire {

// Creates TUN device name in the calling thread's network namespace and
// returns its non-blocking fd. IFF_TUN | IFF_NO_PI: each read returns one
// whole IP packet, each write sends one. The device advertises no offloads,
// so the kernel segments TCP to the MTU before a packet reaches the fd. It
// disappears when the fd is closed (it is not persistent), so a killed run
// leaves no device behind.
Fd open_tun(const std::string& name);

}  // namespace wire
