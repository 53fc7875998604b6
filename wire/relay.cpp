#include "wire/relay.hpp"

#include <httplib.h>

#include <cstdio>
#include <stdexcept>

#include "codecs/registry.hpp"
#include "wire/http_server.hpp"
#include "wire/link.hpp"
#include "wire/netns.hpp"

namespace wire {
namespace {

std::string ms_text(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

std::unique_ptr<wb::Router> make_router(const std::string& library) {
  for (const wb::RouterEntry* r : wb::routers_of("soap")) {
    if (r->library == library) return r->make();
  }
  throw std::runtime_error("relay: no soap router " + library);
}

}  // namespace

Relay::Relay(const Testbed& testbed, RelaySettings settings)
    : settings_(std::move(settings)), server_(std::make_unique<httplib::Server>()) {
  if (!settings_.router.empty()) router_ = make_router(settings_.router);
  const auto timeout = http_io_timeout(testbed);
  configure_server(*server_, timeout, settings_.nodelay);
  auto handler = [this](const httplib::Request& req, httplib::Response& res) { handle(req, res); };
  server_->Post("/deliver", handler);
  server_->Post("/deliver/a", handler);
  server_->Post("/deliver/b", handler);

  // The upstream connection is opened by the handler threads, which the
  // listening thread starts: that thread enters the middle namespace first,
  // so every socket of the relay is made there.
  upstream_ = std::make_unique<httplib::Client>(kServerAddress, kReceiverPort);
  upstream_->set_connection_timeout(timeout);
  upstream_->set_read_timeout(timeout);
  upstream_->set_write_timeout(timeout);
  upstream_->set_keep_alive(true);
  upstream_->set_tcp_nodelay(settings_.nodelay);
  upstream_->set_socket_options([timeout](socket_t sock) { set_socket_timeouts(sock, timeout); });

  const std::string& ns = testbed.namespace_name(Side::kMiddle);
  const bool bound = run_in(ns, [&] { return server_->bind_to_port(kMiddleAddress, kHttpPort); });
  if (!bound) {
    throw std::runtime_error("relay: cannot bind " + std::string(kMiddleAddress) + ":" +
                             std::to_string(kHttpPort));
  }
  thread_ = std::thread([this, ns] {
    try {
      enter_namespace(ns);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      errors_.push_back(std::string("relay: ") + e.what());
      return;
    }
    server_->listen_after_bind();
  });
}

Relay::~Relay() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::vector<std::string> Relay::take_errors() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(errors_, {});
}

void Relay::handle(const httplib::Request& req, httplib::Response& res) {
  if (settings_.challenge && req.get_header_value("Authorization") != kAuthorization) {
    res.status = 401;
    res.set_header("WWW-Authenticate", "Basic realm=\"wirebench\"");
    res.set_content("credentials required\n", "text/plain");
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::string receiver;
  // The parsers may read a few bytes past the end (as the decoders do): the
  // copy that gives them room is not timed, a relay would read into such a
  // buffer in the first place.
  const std::string input = router_ ? wb::padded_copy(req.body) : std::string();
  const std::int64_t t0 = monotonic_ns();
  if (router_) {
    try {
      receiver = router_->route(std::string_view(input.data(), req.body.size()), settings_.rule)
                     ? "a"
                     : "b";
    } catch (const std::exception& e) {
      res.status = 400;
      res.set_content(std::string("cannot route: ") + e.what() + "\n", "text/plain");
      return;
    }
  } else if (req.path.size() > sizeof("/deliver/") - 1) {
    receiver = req.path.substr(sizeof("/deliver/") - 1);
  } else {
    res.status = 400;
    res.set_content("no receiver in the URL and no content routing\n", "text/plain");
    return;
  }
  const std::int64_t t1 = monotonic_ns();
  httplib::Headers headers;
  if (req.has_header("SOAPAction"))
    headers.emplace("SOAPAction", req.get_header_value("SOAPAction"));
  auto answer = upstream_->Post(("/receiver/" + receiver).c_str(), headers, req.body,
                                req.get_header_value("Content-Type").c_str());
  const std::int64_t t2 = monotonic_ns();
  if (!answer) {
    const std::string why = "relay: forwarding to receiver " + receiver + " failed (" +
                            httplib::to_string(answer.error()) + ")";
    errors_.push_back(why);
    res.status = 502;
    res.set_content(why + "\n", "text/plain");
    return;
  }
  res.status = answer->status;
  res.set_header("X-Wb-Receiver", receiver);
  res.set_header("X-Wb-Route-Ms", ms_text(t1 - t0));
  res.set_header("X-Wb-Upstream-Ms", ms_text(t2 - t1));
  res.set_content(answer->body, answer->get_header_value("Content-Type").c_str());
}

}  // namespace wire
