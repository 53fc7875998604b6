#pragma once

// TLS contexts for the HTTP server and client (OpenSSL, under cpp-httplib's
// SSLServer and SSLClient), and what a handshake cost as one end saw it.
// cpp-httplib reaches neither the record layer nor the session, so the
// contexts carry OpenSSL callbacks of their own: the message callback counts
// every record's bytes and the direction changes (flights) until the
// handshake is done, the info callback times it (monotonic and the thread's
// CPU) and, on the client, asks for verification and offers the session it
// keeps.
// A handshake runs in one thread from start to end (cpp-httplib's client
// thread, or the server's thread of that connection), so each thread keeps
// the figures of its latest handshake.

#include <cstdint>
#include <string>

#include "wire/tls_config.hpp"

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_session_st SSL_SESSION;

namespace wire {

class TestPki;

struct TlsHandshake {
  bool done = false;
  bool server = false;
  bool resumed = false;
  // As negotiated: "TLSv1.3", "TLS_AES_128_GCM_SHA256", "X25519".
  std::string version, cipher, group;
  // Every TLS record (its 5-byte header included) until the handshake was
  // done, each way; TCP/IP headers are not counted.
  std::uint64_t bytes_sent = 0, bytes_received = 0;
  // The server's first flight: its records up to the first the client
  // answers (ServerHello to Finished in TLS 1.3, to ServerHelloDone in 1.2).
  std::uint64_t server_first_flight_bytes = 0;
  // The client's round trips: how often it waited for the server's records
  // after sending its own, until done (TLS 1.3: 1; TLS 1.2: 2, resumed 1).
  int flights_rtts = 0;
  // Application data records sent before done, not counted in bytes_sent:
  // the client's early data (0-RTT), the server's answer to it (0.5-RTT).
  std::uint64_t early_data_sent = 0;
  // Records of the handshake protocol after done (TLS 1.3 NewSessionTicket).
  std::uint64_t post_handshake_bytes = 0;
  std::int64_t start_ns = 0, done_ns = 0;  // monotonic
  double cpu_ms = 0;                       // this thread's CPU from start to done
  std::string failure;                     // the verification error or the alert, when it failed

  double ms() const { return static_cast<double>(done_ns - start_ns) / 1e6; }
};

// The latest handshake of the calling thread (a default one before any).
const TlsHandshake& this_thread_handshake();
// Its CPU: cpu_ms once done, the thread's CPU since its start before (a
// server answering early data answers before the client's Finished).
double this_thread_handshake_cpu_ms();

// The one session the client keeps (its newest): a new connection offers it
// and resumes it.
class TlsSessions {
 public:
  explicit TlsSessions(bool resume) : resume_(resume) {}
  ~TlsSessions();
  TlsSessions(const TlsSessions&) = delete;
  TlsSessions& operator=(const TlsSessions&) = delete;

  void keep(SSL_SESSION* session);  // takes it over
  SSL_SESSION* to_resume() const { return resume_ ? last_ : nullptr; }
  std::uint64_t kept() const { return kept_; }  // sessions kept so far

 private:
  bool resume_;
  SSL_SESSION* last_ = nullptr;
  std::uint64_t kept_ = 0;
};

// Early data a server accepts per connection (--tls-early-data): a
// request's head fits many times over.
inline constexpr std::uint32_t kMaxEarlyData = 16384;

// The server's context: pki's leaf and intermediates, the one version and
// cipher of tls, session tickets on, early data with tls.early_data. Throws std::runtime_error.
void setup_tls_server(SSL_CTX* ctx, const TlsConfig& tls, const TestPki& pki);
// The client's context: trusts pki's root alone, verifies the chain and
// kTlsHost, the one version and cipher, and keeps each new session in
// sessions (which outlives ctx). Throws std::runtime_error.
void setup_tls_client(SSL_CTX* ctx, const TlsConfig& tls, const TestPki& pki,
                      TlsSessions* sessions);

}  // namespace wire
