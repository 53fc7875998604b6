#pragma once

// How the --http exchange runs over HTTP/2 (nghttp2): over TLS with ALPN
// "h2" when TLS is on, else cleartext with prior knowledge (h2c); the
// client's receive windows; how many requests go out at once as concurrent
// streams of one connection. The command line's --h2* options set it.

#include <cstdint>
#include <string>

#include "wire/tls_config.hpp"

namespace wire {

// The port of the HTTP/2 service in the server namespace.
inline constexpr std::uint16_t kH2Port = 8443;
// HTTP/2's initial stream and connection window (RFC 9113, 6.9.2).
inline constexpr std::uint32_t kH2DefaultWindow = 65'535;

struct H2Config {
  bool enabled = false;
  // The client's receive windows: 0 leaves both at the protocol's 65,535
  // bytes; otherwise SETTINGS_INITIAL_WINDOW_SIZE raises every stream's and a
  // WINDOW_UPDATE on stream 0 the connection's, to this many bytes.
  std::uint32_t window = 0;
  // The connection's window alone (--h2-connection-window); 0 follows window.
  std::uint32_t connection = 0;
  // Requests per batch, sent together as concurrent streams; 1 sends each
  // after the last one's answer, as HTTP/1.1 on one connection does.
  int streams = 1;

  std::uint32_t stream_window() const { return window ? window : kH2DefaultWindow; }
  std::uint32_t connection_window() const { return connection ? connection : stream_window(); }
  // The stack's name: "h2+tls1.3", "h2+tls1.2" or "h2c".
  std::string stack(const TlsConfig& tls) const;
  // {"window": ..., "stream_window": ..., "streams": ...}
  std::string json() const;
};

// Sets one field from its command-line option (--h2, --h2-window
// default|BYTES, --h2-connection-window default|BYTES, --h2-streams N); throws
// std::invalid_argument naming the option and what it takes.
void set_h2_option(H2Config& h2, const std::string& option, const std::string& value);

}  // namespace wire
