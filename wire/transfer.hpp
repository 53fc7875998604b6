#pragma once

// The measured transfer: a server in the server namespace (an echo port and a
// response port) and a client in the client namespace that times requests.
// Protocol on the response port: the client sends an 8-byte big-endian byte
// count, the server answers with that many bytes; a connection carries any
// number of such requests (keep-alive). Both ends set TCP_NODELAY, as HTTP
// servers and clients do, so a small request or a response's last partial
// segment never waits for an ACK.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "wire/fd.hpp"
#include "wire/testbed.hpp"

namespace wire {

inline constexpr std::uint16_t kEchoPort = 7;
inline constexpr std::uint16_t kResponsePort = 8000;

class Server {
 public:
  explicit Server(const Testbed& testbed);
  ~Server();  // stops and joins
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The congestion control of the last accepted connection (getsockopt
  // TCP_CONGESTION), empty before the first.
  std::string congestion_in_use() const;
  std::string error() const;

 private:
  void run() noexcept;
  void loop();

  Fd echo_listen_, response_listen_, stop_;
  std::atomic<bool> has_congestion_{false};
  char congestion_[16] = {};
  std::atomic<bool> failed_{false};
  std::string error_;
  std::thread thread_;
};

// Times of one request in ms from its start: for a cold request the start is
// the connect() call, for a warm one the request's send.
struct RequestTiming {
  bool cold = false;
  std::uint64_t bytes = 0;
  double connect_ms = 0;  // cold only: SYN to SYN-ACK
  double first_byte_ms = 0;
  double last_byte_ms = 0;
  std::uint64_t link_drops = 0;  // packets the link's queues dropped meanwhile
};

// Called after every read with the bytes received so far and CLOCK_MONOTONIC ns.
using ProgressFn = std::function<void(std::uint64_t received, std::int64_t now_ns)>;

class Client {
 public:
  explicit Client(const Testbed& testbed);

  // Connects to the response port (cold): start_ns is set to the connect()
  // call (the socket is made before, in the namespace, untimed) and the
  // timing's connect_ms from it. window_clamp > 0 caps the receive window
  // (TCP_WINDOW_CLAMP) in bytes.
  Fd connect_response(RequestTiming& timing, std::int64_t& start_ns, int window_clamp = 0);
  // One request of bytes on conn; start_ns is the request's start (the
  // connect() call for the first request of a connection).
  void request(const Fd& conn, RequestTiming& timing, std::int64_t start_ns,
               const ProgressFn& progress = {});
  // A cold request: new connection, one request, close.
  RequestTiming cold_request(std::uint64_t bytes, const ProgressFn& progress = {});

  // Connects to the echo port.
  Fd connect_echo();
  // Round trip of one byte on an echo connection, in ms.
  double echo(const Fd& conn);

  // No byte for this long is a stalled transfer: max(5 s, 20 RTTs).
  std::int64_t stall_timeout_ns() const;

 private:
  Fd connect_to(std::uint16_t port, std::int64_t* started_ns, std::int64_t* connected_ns,
                int window_clamp = 0);
  std::uint64_t drops() const;

  const Testbed& testbed_;
};

}  // namespace wire
