#include "wire/tun.hpp"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace wire {

Fd open_tun(const std::string& name) {
  if (name.size() >= IFNAMSIZ) throw std::runtime_error("TUN name too long: " + name);
  Fd fd(::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC));
  if (!fd) throw std::runtime_error(std::string("open /dev/net/tun: ") + std::strerror(errno));
  ifreq ifr{};
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  std::memcpy(ifr.ifr_name, name.c_str(), name.size());
  if (::ioctl(fd.get(), TUNSETIFF, &ifr) != 0) {
    throw std::runtime_error("TUNSETIFF " + name + ": " + std::strerror(errno));
  }
  return fd;
}

}  // namespace wire
