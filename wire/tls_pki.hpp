#pragma once

// The test CA a run makes for itself, in memory only (nothing is written to
// disk, so nothing is left behind on any exit path): a self-signed root, the
// chain - 1 intermediate CAs below it and the server's leaf, all of one key
// type. The root is the client's only trust anchor; the server sends the
// leaf and the intermediates.

#include <memory>
#include <string>
#include <vector>

#include "wire/tls_config.hpp"

typedef struct x509_st X509;
typedef struct evp_pkey_st EVP_PKEY;
typedef struct x509_store_st X509_STORE;
typedef struct ssl_ctx_st SSL_CTX;

namespace wire {

class TestPki {
 public:
  // Issues the chain for host (the leaf's subjectAltName); every
  // certificate also carries tls.names padding names. Throws
  // std::runtime_error with OpenSSL's reason when a step fails.
  TestPki(const TlsConfig& tls, const std::string& host);
  ~TestPki();
  TestPki(const TestPki&) = delete;
  TestPki& operator=(const TestPki&) = delete;

  // The leaf, its key and the intermediates, on a server's context.
  // Throws std::runtime_error.
  void serve_on(SSL_CTX* ctx) const;
  // A new store holding the root alone, for a client's context (which
  // takes it over).
  X509_STORE* trust_store() const;
  // DER bytes of the certificates the server sends, leaf first.
  std::vector<std::size_t> sent_der_bytes() const;
  // PEM, for a library that takes its credentials so (gRPC): the
  // certificates the server sends (leaf first), the leaf's key, and the root
  // a client trusts. Throws std::runtime_error.
  std::string chain_pem() const;
  std::string key_pem() const;
  std::string root_pem() const;

  struct Issued;  // a certificate and its key (tls_pki.cpp)

 private:
  std::unique_ptr<Issued> root_;
  std::vector<std::unique_ptr<Issued>> chain_;  // leaf first, then its issuers below the root
};

}  // namespace wire
