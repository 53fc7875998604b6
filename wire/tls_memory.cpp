#include "wire/tls_memory.hpp"

#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <stdexcept>
#include <vector>

#include "wire/tls_error.hpp"

namespace wire {
namespace {

constexpr char kContext[] = "TLS in memory";
// A handshake takes at most 3 turns of each end (TLS 1.2's full one); more
// means that neither end can go on.
constexpr int kMaxTurns = 8;

const char* side_name(TlsSide side) {
  return side == TlsSide::kClient ? "client" : "server";
}

SSL_CTX* new_context(const SSL_METHOD* method) {
  SSL_CTX* ctx = SSL_CTX_new(method);
  if (!ctx) throw_openssl_error(kContext, "new context");
  return ctx;
}

[[noreturn]] void fail(SSL* ssl, TlsSide side, const std::string& what) {
  std::string message = std::string(side_name(side)) + " " + what;
  if (side == TlsSide::kClient) {
    if (const long verify = SSL_get_verify_result(ssl); verify != X509_V_OK)
      message +=
          ": certificate verify failed: " + std::string(X509_verify_cert_error_string(verify));
  }
  throw_openssl_error(kContext, message);
}

// One call of one end into the handshake; whether that end is done.
bool step(SSL* ssl, TlsSide side, const TlsSideWindow& window) {
  if (window) window(side, true);
  const int ret = SSL_do_handshake(ssl);
  if (window) window(side, false);
  if (ret == 1) return true;
  const int error = SSL_get_error(ssl, ret);
  if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return false;
  fail(ssl, side, "handshake");
}

}  // namespace

TlsConfig tls_case(const std::string& version, const std::string& key, const std::string& cipher,
                   bool resume) {
  TlsConfig tls;
  tls.version = version;
  tls.key = key;
  tls.cipher = cipher;
  tls.resume = resume;
  return tls;
}

TlsMemoryContexts::TlsMemoryContexts(const TlsConfig& tls)
    : tls_(tls), pki_(tls, kTlsHost), sessions_(tls.resume) {
  try {
    client_ = new_context(TLS_client_method());
    setup_tls_client(client_, tls_, pki_, &sessions_);
    server_ = new_context(TLS_server_method());
    setup_tls_server(server_, tls_, pki_);
  } catch (...) {
    SSL_CTX_free(client_);
    SSL_CTX_free(server_);
    throw;
  }
}

TlsMemoryContexts::~TlsMemoryContexts() {
  SSL_CTX_free(client_);
  SSL_CTX_free(server_);
}

TlsMemoryPair::TlsMemoryPair(SSL_CTX* client, SSL_CTX* server, std::size_t buffer_bytes) {
  client_ = SSL_new(client);
  server_ = SSL_new(server);
  BIO* client_bio = nullptr;
  if (!client_ || !server_ ||
      !BIO_new_bio_pair(&client_bio, buffer_bytes, &server_bio_, buffer_bytes)) {
    SSL_free(client_);
    SSL_free(server_);
    throw_openssl_error(kContext, "new connection");
  }
  // Each end takes over its BIO (one reference for reading and writing).
  SSL_set_bio(client_, client_bio, client_bio);
  SSL_set_bio(server_, server_bio_, server_bio_);
  SSL_set_connect_state(client_);
  SSL_set_accept_state(server_);
  // The name the client asks for, as over the link (it is in the ClientHello).
  SSL_set_tlsext_host_name(client_, kTlsHost);
}

TlsMemoryPair::~TlsMemoryPair() {
  // Closed as over the link (close_notify each way): a connection freed
  // without it marks its session not resumable.
  // A handshake that failed has nothing to close.
  for (SSL* ssl : {client_, server_})
    if (SSL_is_init_finished(ssl)) SSL_shutdown(ssl);
  SSL_free(client_);
  SSL_free(server_);
}

void TlsMemoryPair::handshake(const TlsSideWindow& window) {
  bool client_done = false, server_done = false;
  for (int turn = 0; turn < kMaxTurns && !(client_done && server_done); ++turn) {
    if (!client_done) client_done = step(client_, TlsSide::kClient, window);
    if (!server_done) server_done = step(server_, TlsSide::kServer, window);
  }
  if (!client_done || !server_done) {
    throw std::runtime_error(std::string(kContext) + ": the handshake did not end in " +
                             std::to_string(kMaxTurns) + " turns of each end");
  }
  // TLS 1.3's NewSessionTickets follow the server's done; the client reads
  // them as it reads the response, before any application data.
  while (BIO_ctrl_pending(SSL_get_rbio(client_)) > 0) {
    unsigned char byte = 0;
    if (window) window(TlsSide::kClient, true);
    const int ret = SSL_read(client_, &byte, 1);
    if (window) window(TlsSide::kClient, false);
    if (ret > 0) throw std::runtime_error(std::string(kContext) + ": data before any request");
    if (SSL_get_error(client_, ret) != SSL_ERROR_WANT_READ)
      fail(client_, TlsSide::kClient, "read after the handshake");
  }
}

bool TlsMemoryPair::resumed(TlsSide side) const {
  return SSL_session_reused(side == TlsSide::kClient ? client_ : server_) == 1;
}

std::string TlsMemoryPair::version() const {
  return SSL_get_version(client_);
}

std::string TlsMemoryPair::cipher() const {
  const SSL_CIPHER* cipher = SSL_get_current_cipher(client_);
  return cipher ? SSL_CIPHER_get_name(cipher) : "none";
}

void TlsMemoryPair::seal(std::span<const unsigned char> data) {
  std::size_t written = 0;
  if (!SSL_write_ex(client_, data.data(), data.size(), &written) || written != data.size())
    fail(client_, TlsSide::kClient, "seal of " + std::to_string(data.size()) + " bytes");
}

void TlsMemoryPair::open(std::span<unsigned char> out) {
  std::size_t got = 0;
  while (got < out.size()) {
    std::size_t n = 0;
    if (!SSL_read_ex(server_, out.data() + got, out.size() - got, &n)) {
      fail(server_, TlsSide::kServer,
           "open at byte " + std::to_string(got) + " of " + std::to_string(out.size()));
    }
    got += n;
  }
}

std::size_t TlsMemoryPair::sealed_bytes() const {
  return BIO_ctrl_pending(server_bio_);
}

void TlsMemoryPair::discard() {
  std::vector<unsigned char> scratch(64 * 1024);
  while (BIO_read(server_bio_, scratch.data(), static_cast<int>(scratch.size())) > 0) {
  }
}

}  // namespace wire
