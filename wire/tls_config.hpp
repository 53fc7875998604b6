#pragma once

// How the HTTP exchange is secured: plain, or TLS 1.3 / 1.2 with a key type,
// a certificate chain length and one cipher, as the command line's --tls*
// options give them. Both ends are pinned to the one version and cipher, so
// that a row measures exactly the stack it names.

#include <string>

namespace wire {

struct TlsConfig {
  std::string version;               // "1.3" or "1.2"; empty: plain HTTP
  std::string key = "ecdsa";         // "ecdsa" (P-256) or "rsa" (2048 bits), every key of the chain
  int chain = 1;                     // certificates the server sends: the leaf and chain - 1 CAs
  std::string cipher = "aes128gcm";  // "aes128gcm" or "chacha20"
  // A new connection resumes the session of the last one (a session ticket
  // in both versions) instead of a full handshake.
  bool resume = false;
  // TLS 1.3 0-RTT: the server accepts early data, and a resumed connection
  // sends its request as early data (implies resume).
  bool early_data = false;
  // DNS names in every certificate of the chain: a shared (CDN) certificate
  // carries hundreds, and they set the size of the server's first flight.
  int names = 230;

  bool enabled() const { return !version.empty(); }
  // The stack's name in tools/links.json: "http1", "http1+tls1.3", ...
  std::string stack() const;
  // {"version": "1.3", "key": "ecdsa", ...}, or null for plain HTTP.
  std::string json() const;
};

// The host name the server's certificate is issued for and the client asks
// for (SNI and the name it verifies); it maps to kServerAddress.
inline constexpr char kTlsHost[] = "service.wirebench.test";

// Sets one field from its command-line option (--tls 1.3, --tls-cert rsa,
// --tls-chain 3, --tls-cipher chacha20, --tls-names 0); throws
// std::invalid_argument naming the option and what it takes.
void set_tls_option(TlsConfig& tls, const std::string& option, const std::string& value);

}  // namespace wire
