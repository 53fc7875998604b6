#pragma once

// The receiver of the sappi scenario's SOAP requests, in the server
// namespace (kServerAddress:kReceiverPort): POST /receiver/a and
// /receiver/b compare the body with the request the sender sent and answer a
// small SOAP envelope naming the receiver and the bytes taken (status 200),
// or a 400 saying where the body differs, so that a relay that routes to the
// wrong receiver or changes a byte fails the call.

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "wire/testbed.hpp"

namespace httplib {
class Server;
}  // namespace httplib

namespace wire {

// The receiver service's port in the server namespace.
inline constexpr std::uint16_t kReceiverPort = 8081;

class SoapReceiver {
 public:
  // expected: the request body every call must carry; nodelay false leaves
  // Nagle on for the answers. Throws std::runtime_error when it cannot bind.
  SoapReceiver(const Testbed& testbed, std::string expected, bool nodelay);
  ~SoapReceiver();  // stops, joins
  SoapReceiver(const SoapReceiver&) = delete;
  SoapReceiver& operator=(const SoapReceiver&) = delete;

  // The answer a receiver gives to a request of bytes: what the sender checks.
  static std::string answer(const std::string& receiver, std::size_t bytes);

 private:
  std::string expected_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
};

}  // namespace wire
