#include "wire/tls_handshake.hpp"

#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <time.h>

#include "wire/link.hpp"
#include "wire/tls_error.hpp"
#include "wire/tls_pki.hpp"

namespace wire {
namespace {

// What the callbacks of this thread's handshake carry between calls.
struct Tracker {
  TlsHandshake handshake;
  bool started = false;
  int last_write = -1;              // direction of the last record: 1 sent, 0 received
  int server_flights = 0;           // phases in which records went from the server to the client
  std::uint64_t last_received = 0;  // bytes of the last record received after done
  std::uint64_t last_sent = 0;      // bytes of the last record sent before done
  std::int64_t cpu_start_ns = 0;
};
thread_local Tracker t_tracker;

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int sessions_index() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

void on_record(int write_p, int /*version*/, int content_type, const void* buf, std::size_t len,
               SSL* /*ssl*/, void* /*arg*/) {
  Tracker& t = t_tracker;
  const auto* b = static_cast<const unsigned char*>(buf);
  TlsHandshake& h = t.handshake;
  if (content_type == SSL3_RT_HEADER && len >= SSL3_RT_HEADER_LENGTH) {
    const std::uint64_t bytes = SSL3_RT_HEADER_LENGTH + (std::uint64_t{b[3]} << 8 | b[4]);
    if (h.done) {
      if (!write_p) t.last_received = bytes;
      return;
    }
    if (write_p) t.last_sent = bytes;
    (write_p ? h.bytes_sent : h.bytes_received) += bytes;
    const bool from_server = (write_p == 1) == h.server;
    if (write_p != t.last_write) {  // a new flight
      t.last_write = write_p;
      if (from_server) ++t.server_flights;
      if (!h.server && !write_p) ++h.flights_rtts;
    }
    if (from_server && t.server_flights == 1) h.server_first_flight_bytes += bytes;
  } else if (content_type == SSL3_RT_INNER_CONTENT_TYPE && !h.done && write_p && len >= 1 &&
             b[0] == SSL3_RT_APPLICATION_DATA) {
    // The record's header came first and was counted as the handshake's;
    // it is early (or 0.5-RTT) data.
    h.bytes_sent -= t.last_sent;
    if (h.server && t.server_flights == 1) h.server_first_flight_bytes -= t.last_sent;
    h.early_data_sent += t.last_sent;
  } else if (content_type == SSL3_RT_INNER_CONTENT_TYPE && h.done && !write_p && len >= 1 &&
             b[0] == SSL3_RT_HANDSHAKE) {
    h.post_handshake_bytes += t.last_received;
  }
}

int on_verify(int ok, X509_STORE_CTX* store) {
  TlsHandshake& h = t_tracker.handshake;
  if (!ok && h.failure.empty()) {
    h.failure = "certificate verify failed at depth " +
                std::to_string(X509_STORE_CTX_get_error_depth(store)) + ": " +
                X509_verify_cert_error_string(X509_STORE_CTX_get_error(store));
  }
  return ok;
}

void on_state(const SSL* ssl, int where, int ret) {
  Tracker& t = t_tracker;
  TlsHandshake& h = t.handshake;
  // With early data OpenSSL calls a handshake done when it pauses for the
  // data (TLS_ST_EARLY_DATA: the client after its ClientHello, the server
  // after its Finished) and starts it again to finish it (no longer
  // "before"): it is one handshake, done at the end.
  const bool early_pause = SSL_get_state(ssl) == TLS_ST_EARLY_DATA;
  const bool resumes_early = t.started && !h.done && !SSL_in_before(ssl);
  if ((where & SSL_CB_HANDSHAKE_START) && !resumes_early) {
    t = Tracker{};
    t.started = true;
    t.handshake.server = SSL_is_server(ssl) == 1;
    t.handshake.start_ns = monotonic_ns();
    t.cpu_start_ns = thread_cpu_ns();
    if (!t.handshake.server) {
      // cpp-httplib makes the connection without a hook to offer a session;
      // the ClientHello is still to be built here, so the session it offers is
      // the one set now.
      auto* sessions =
          static_cast<TlsSessions*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), sessions_index()));
      if (sessions && sessions->to_resume()) {
        SSL_set_session(const_cast<SSL*>(ssl), sessions->to_resume());
      }
    }
  }
  if ((where & SSL_CB_HANDSHAKE_DONE) && t.started && !h.done && !early_pause) {
    h.done = true;
    h.done_ns = monotonic_ns();
    h.cpu_ms = static_cast<double>(thread_cpu_ns() - t.cpu_start_ns) / 1e6;
    h.resumed = SSL_session_reused(ssl) == 1;
    h.version = SSL_get_version(ssl);
    h.cipher = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl));
    const int group = SSL_get_negotiated_group(const_cast<SSL*>(ssl));
    if (const char* name = group > 0 ? OBJ_nid2sn(group) : nullptr) h.group = name;
  }
  // An alert other than close_notify ends a handshake that failed.
  if ((where & SSL_CB_ALERT) && (ret & 0xff) != SSL3_AD_CLOSE_NOTIFY && h.failure.empty()) {
    h.failure = std::string("TLS alert ") + ((where & SSL_CB_READ) ? "received" : "sent") + ": " +
                SSL_alert_desc_string_long(ret);
    // An alert this end sends follows the error OpenSSL queued for it, which
    // says more ("excessive message size" behind "illegal parameter").
    if (where & SSL_CB_WRITE) {
      if (const char* reason = ERR_reason_error_string(ERR_peek_last_error())) {
        h.failure += std::string(" (") + reason + ")";
      }
    }
  }
}

int on_new_session(SSL* ssl, SSL_SESSION* session) {
  auto* sessions =
      static_cast<TlsSessions*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), sessions_index()));
  if (!sessions) return 0;
  sessions->keep(session);
  return 1;  // kept: OpenSSL does not free it
}

// Both ends: the one version and the one cipher, and the callbacks.
void pin(SSL_CTX* ctx, const TlsConfig& tls) {
  const int version = tls.version == "1.2" ? TLS1_2_VERSION : TLS1_3_VERSION;
  if (!SSL_CTX_set_min_proto_version(ctx, version) ||
      !SSL_CTX_set_max_proto_version(ctx, version)) {
    throw_openssl_error("TLS context", "TLS " + tls.version);
  }
  const bool chacha = tls.cipher == "chacha20";
  // TLS 1.2 suites name the key type; both are listed, the server's key picks.
  const char* suites12 = chacha ? "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
                                : "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256";
  const char* suites13 = chacha ? "TLS_CHACHA20_POLY1305_SHA256" : "TLS_AES_128_GCM_SHA256";
  if (!SSL_CTX_set_cipher_list(ctx, suites12) || !SSL_CTX_set_ciphersuites(ctx, suites13)) {
    throw_openssl_error("TLS context", "cipher " + tls.cipher);
  }
  SSL_CTX_set_msg_callback(ctx, on_record);
  SSL_CTX_set_info_callback(ctx, on_state);
}

}  // namespace

const TlsHandshake& this_thread_handshake() {
  return t_tracker.handshake;
}

double this_thread_handshake_cpu_ms() {
  const Tracker& t = t_tracker;
  if (t.handshake.done || !t.started) return t.handshake.cpu_ms;
  return static_cast<double>(thread_cpu_ns() - t.cpu_start_ns) / 1e6;
}

TlsSessions::~TlsSessions() {
  SSL_SESSION_free(last_);
}

void TlsSessions::keep(SSL_SESSION* session) {
  SSL_SESSION_free(last_);
  last_ = session;
  ++kept_;
}

void setup_tls_server(SSL_CTX* ctx, const TlsConfig& tls, const TestPki& pki) {
  pki.serve_on(ctx);
  pin(ctx, tls);
  // Early data on: OpenSSL then issues single-use (stateful) tickets, its
  // anti-replay for 0-RTT.
  if (tls.early_data && !SSL_CTX_set_max_early_data(ctx, kMaxEarlyData)) {
    throw_openssl_error("TLS context", "max early data");
  }
}

void setup_tls_client(SSL_CTX* ctx, const TlsConfig& tls, const TestPki& pki,
                      TlsSessions* sessions) {
  pin(ctx, tls);
  // The verify store, not the context's own (to which cpp-httplib would add
  // the system's default paths): the root of the run is the only anchor.
  X509_STORE* store = pki.trust_store();
  const int set = SSL_CTX_set1_verify_cert_store(ctx, store);
  X509_STORE_free(store);
  if (!set) throw_openssl_error("TLS context", "trust store");
  X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  if (!X509_VERIFY_PARAM_set1_host(param, kTlsHost, 0))
    throw_openssl_error("TLS context", "host name");
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, on_verify);
  SSL_CTX_set_ex_data(ctx, sessions_index(), sessions);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(ctx, on_new_session);
}

}  // namespace wire
