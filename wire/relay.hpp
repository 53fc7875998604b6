#pragma once

// The middleware hop of the sappi scenario, as SAP PI places it between a
// sender and a receiver: an HTTP/1.1 relay in the middle namespace
// (kMiddleAddress:kHttpPort) that takes each SOAP request (POST /deliver),
// decides its receiver and forwards it on a kept-alive connection of its own
// to the receiver service in the server namespace (SoapReceiver,
// kServerAddress:kReceiverPort), then passes the receiver's answer back.
//
// The receiver is decided either by parsing the request with a content router
// of codecs/route (the rule matches: receiver "a", else "b") or, with no
// router, by the URL (POST /deliver/a), as a hop configured per interface
// does. What the relay spent travels back in response headers: X-Wb-Receiver,
// X-Wb-Route-Ms (the routing decision) and X-Wb-Upstream-Ms (the forwarded
// call). Each instance has fixed settings; a scenario makes a new one per
// series.

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "codecs/router.hpp"
#include "wire/soap_receiver.hpp"
#include "wire/testbed.hpp"

namespace httplib {
class Server;
class Client;
struct Request;
struct Response;
}  // namespace httplib

namespace wire {

struct RelaySettings {
  // A codecs/route library token ("pugixml-xpath", "expat-sniff", ...):
  // route on the body with wb::RouteRule rule; empty: route by the URL.
  std::string router;
  wb::RouteRule rule;
  // Answer 401 to a request without kAuthorization (the sender has no
  // pre-authentication and sends it again with credentials).
  bool challenge = false;
  // TCP_NODELAY on both of the relay's connections; false leaves Nagle on.
  bool nodelay = true;
};

class Relay {
 public:
  // Binds in the middle namespace and serves from a thread of its own, one
  // thread per connection, all in that namespace; throws std::runtime_error
  // when it cannot bind or the router is unknown.
  Relay(const Testbed& testbed, RelaySettings settings);
  ~Relay();  // stops, joins
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  // Requests the relay could not complete since the last call, one line each.
  std::vector<std::string> take_errors();

 private:
  void handle(const httplib::Request& req, httplib::Response& res);

  RelaySettings settings_;
  std::unique_ptr<wb::Router> router_;
  std::unique_ptr<httplib::Server> server_;
  std::unique_ptr<httplib::Client> upstream_;
  std::mutex mutex_;  // one request at a time through router_ and upstream_; guards errors_
  std::vector<std::string> errors_;
  std::thread thread_;
};

}  // namespace wire
