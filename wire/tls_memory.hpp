#pragma once

// A TLS client and server in one process, joined by an in-memory BIO pair
// instead of the emulated link: the contexts of the measured wire
// (setup_tls_server and setup_tls_client over the run's own test CA, with
// verification of the chain and the host name on), without a socket or a
// thread, so that each end's handshake and the records' sealing and opening
// can be measured apart (wire/tls_cpu_bench.cpp) and checked
// (tests/tls_cpu_test.cpp).

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "wire/tls_config.hpp"
#include "wire/tls_handshake.hpp"
#include "wire/tls_pki.hpp"

typedef struct ssl_st SSL;
typedef struct bio_st BIO;

namespace wire {

enum class TlsSide { kClient, kServer };

// The configuration of one in-memory case: the wire's defaults (one
// certificate padded with its names) with these four set.
TlsConfig tls_case(const std::string& version, const std::string& key = "ecdsa",
                   const std::string& cipher = "aes128gcm", bool resume = false);

// Both contexts of one TlsConfig and the test CA they use. With tls.resume
// the client offers the newest session it was given on every new connection.
class TlsMemoryContexts {
 public:
  // Throws std::runtime_error with OpenSSL's reason.
  explicit TlsMemoryContexts(const TlsConfig& tls);
  ~TlsMemoryContexts();
  TlsMemoryContexts(const TlsMemoryContexts&) = delete;
  TlsMemoryContexts& operator=(const TlsMemoryContexts&) = delete;

  SSL_CTX* client() const { return client_; }
  SSL_CTX* server() const { return server_; }
  const TlsConfig& config() const { return tls_; }

 private:
  TlsConfig tls_;
  TestPki pki_;
  TlsSessions sessions_;
  SSL_CTX* client_ = nullptr;
  SSL_CTX* server_ = nullptr;
};

// Called around each of one end's own calls into OpenSSL: (side, true)
// before, (side, false) after, so that a caller can time or count that end
// alone.
using TlsSideWindow = std::function<void(TlsSide side, bool open)>;

// One connection of the two contexts. The pair's buffer holds what one end
// wrote until the other reads it: buffer_bytes each way.
class TlsMemoryPair {
 public:
  TlsMemoryPair(const TlsMemoryContexts& contexts, std::size_t buffer_bytes = 64 * 1024)
      : TlsMemoryPair(contexts.client(), contexts.server(), buffer_bytes) {}
  // A client of one configuration against a server of another (a CA the
  // client does not trust, say).
  TlsMemoryPair(SSL_CTX* client, SSL_CTX* server, std::size_t buffer_bytes = 64 * 1024);
  ~TlsMemoryPair();
  TlsMemoryPair(const TlsMemoryPair&) = delete;
  TlsMemoryPair& operator=(const TlsMemoryPair&) = delete;

  // Runs the handshake to its end on both sides, then lets the client read
  // what the server sent after it (TLS 1.3's session tickets, which the next
  // connection resumes from). window brackets each end's calls. Throws
  // std::runtime_error with the end, OpenSSL's reason and, on a failed
  // verification, its error.
  void handshake(const TlsSideWindow& window = {});
  bool resumed(TlsSide side) const;
  // As negotiated: "TLSv1.3", "TLS_AES_128_GCM_SHA256".
  std::string version() const;
  std::string cipher() const;

  // The client seals data into records of up to 16,384 bytes (SSL_write),
  // left in the pair for the server; throws std::runtime_error.
  void seal(std::span<const unsigned char> data);
  // The server opens out.size() bytes of what the client sealed (SSL_read,
  // one record at a time); throws std::runtime_error.
  void open(std::span<unsigned char> out);
  // Bytes the client sealed that the server has not read: records with
  // their headers.
  std::size_t sealed_bytes() const;
  // Drops what the client sealed without opening it. The server cannot open
  // anything after it.
  void discard();

 private:
  SSL* client_ = nullptr;
  SSL* server_ = nullptr;
  BIO* server_bio_ = nullptr;  // the server's end of the pair, for discard()
};

}  // namespace wire
