#pragma once

// TLS 1.3 0-RTT for the HTTP/1.1 exchange, where cpp-httplib has no hook:
// its SSLClient finishes the handshake before it writes a request, and its
// SSLServer before it reads one. The client here opens a connection of its
// own and writes the request as early data when the session it resumes
// allows it (SSL_write_early_data), resending it after the handshake when
// the server rejects it; the server's stream reads the request from early
// data (SSL_read_early_data) and answers before the client's Finished
// (0.5-RTT), under cpp-httplib's own request handling (HttpServer).
// OpenSSL's anti-replay stays on: the server's tickets are single-use, so
// the client waits for a fresh one after each answer, outside the timed call.

#include <httplib.h>
#include <openssl/ssl.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "wire/tls_config.hpp"
#include "wire/tls_handshake.hpp"

namespace wire {

class Testbed;
class TestPki;

// "accepted", "rejected" or "not_sent" (no session, or one without early data).
std::string early_data_status(const SSL* ssl);

// What one call on a new connection saw beyond its response.
struct EarlyDataCall {
  bool connected = false;              // the TCP connection was made
  double connect_ms = 0;               // connect() to established
  std::string congestion;              // TCP_CONGESTION of the client's end
  std::string early_data;              // early_data_status of the connection
  std::uint64_t early_data_bytes = 0;  // the request's bytes written as early data
  bool resent = false;                 // rejected, then written again after the handshake
};

class EarlyDataClient {
 public:
  // The client's context as setup_tls_client makes it, sessions kept in
  // sessions (which outlives this). Throws std::runtime_error.
  EarlyDataClient(const Testbed& testbed, const TlsConfig& tls, const TestPki& pki,
                  TlsSessions* sessions);
  ~EarlyDataClient();
  EarlyDataClient(const EarlyDataClient&) = delete;
  EarlyDataClient& operator=(const EarlyDataClient&) = delete;

  // GET path with headers on a new connection, closed after the answer:
  // on_head with the response's head, on_body with each piece of its body
  // (Content-Length bytes), as cpp-httplib's Get. A failed connection,
  // handshake or read is the result's error.
  httplib::Result get(const std::string& path, const httplib::Headers& headers, EarlyDataCall& call,
                      const httplib::ResponseHandler& on_head,
                      const httplib::ContentReceiver& on_body);

 private:
  const Testbed& testbed_;
  TlsSessions* sessions_;
  SSL_CTX* ctx_ = nullptr;
};

// The server's end of one connection, as a cpp-httplib Stream: accept()
// runs the handshake as far as the client's early data; reads come from
// early data until its end, then from the connection; writes before then
// are 0.5-RTT data.
class EarlyDataStream : public httplib::Stream {
 public:
  EarlyDataStream(int sock, SSL_CTX* ctx, std::chrono::milliseconds timeout);
  ~EarlyDataStream() override;
  EarlyDataStream(const EarlyDataStream&) = delete;
  EarlyDataStream& operator=(const EarlyDataStream&) = delete;

  // False when the handshake failed.
  bool accept();
  // Data to read within timeout (buffered, or on the socket).
  bool wait_readable(std::chrono::milliseconds timeout) const;
  void shutdown();
  SSL* ssl() const { return ssl_; }

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  int sock_;
  SSL* ssl_ = nullptr;
  std::chrono::milliseconds timeout_;
  bool early_ = false;   // still reading early data
  std::string pending_;  // early data accept() read
};

}  // namespace wire
