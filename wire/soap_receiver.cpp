#include "wire/soap_receiver.hpp"

#include <httplib.h>

#include <algorithm>
#include <stdexcept>

#include "wire/http_server.hpp"
#include "wire/netns.hpp"

namespace wire {

SoapReceiver::SoapReceiver(const Testbed& testbed, std::string expected, bool nodelay)
    : expected_(std::move(expected)), server_(std::make_unique<httplib::Server>()) {
  configure_server(*server_, http_io_timeout(testbed), nodelay);
  server_->Post(R"(/receiver/(a|b))", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string receiver = req.matches[1];
    if (req.body != expected_) {
      const auto at =
          std::mismatch(req.body.begin(), req.body.end(), expected_.begin(), expected_.end());
      res.status = 400;
      res.set_content("receiver " + receiver + ": the body (" + std::to_string(req.body.size()) +
                          " B) differs from the request sent (" + std::to_string(expected_.size()) +
                          " B) at byte " + std::to_string(at.first - req.body.begin()) + "\n",
                      "text/plain");
      return;
    }
    res.set_content(answer(receiver, req.body.size()), "text/xml; charset=utf-8");
  });
  const std::string& ns = testbed.namespace_name(Side::kServer);
  if (!run_in(ns, [&] { return server_->bind_to_port(kServerAddress, kReceiverPort); })) {
    throw std::runtime_error("receiver: cannot bind " + std::string(kServerAddress) + ":" +
                             std::to_string(kReceiverPort));
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

SoapReceiver::~SoapReceiver() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string SoapReceiver::answer(const std::string& receiver, std::size_t bytes) {
  return "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
         "<DeliverResponse xmlns=\"urn:wirebench:sappi\"><Receiver>" +
         receiver + "</Receiver><Bytes>" + std::to_string(bytes) +
         "</Bytes></DeliverResponse></s:Body></s:Envelope>";
}

}  // namespace wire
