// HTTP/2 on the measured wire (wire/h2_*): an h2 exchange over TLS (ALPN)
// and an h2c one over the emulated link decode and check their rows and count
// what HTTP/2 added; the client's windows decide whether it sends
// WINDOW_UPDATEs; a server that sends a frame larger than the client's
// SETTINGS_MAX_FRAME_SIZE is refused with FRAME_SIZE_ERROR and a clear error.
// Asserts what the exchange is, never how long it took. Needs root and
// /dev/net/tun; skipped otherwise.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/wire_support.hpp"
#include "wire/h2_client.hpp"
#include "wire/h2_config.hpp"
#include "wire/h2_server.hpp"
#include "wire/http_spec.hpp"
#include "wire/netns.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_pki.hpp"

namespace {

using wb::test::link_20_20;
using wb::test::page;

wire::H2Config h2(std::uint32_t window = 0) {
  wire::H2Config config;
  config.enabled = true;
  config.window = window;
  return config;
}

void expect_checked(const wire::H2Result& r, int rows) {
  ASSERT_TRUE(r.ok()) << r.http.error;
  EXPECT_EQ(r.http.status, 200);
  EXPECT_TRUE(r.http.checked);
  EXPECT_EQ(r.http.rows, rows);
  EXPECT_EQ(r.h2.data_bytes, r.http.body_bytes);
  EXPECT_GE(r.h2.data_frames, 1);
  // HEADERS out; HEADERS and DATA back.
  EXPECT_EQ(r.h2.frames_sent, 1 + r.h2.stream_window_updates);
  EXPECT_EQ(r.h2.frames_received, 1 + r.h2.data_frames);
  EXPECT_EQ(r.h2.frame_header_bytes(), 9u * (r.h2.frames_sent + r.h2.frames_received));
  EXPECT_EQ(r.h2.server_max_frame_size, 16384u);
}

TEST(H2, TlsExchangeWithAlpnIsDecodedAndChecked) {
  SKIP_WITHOUT_PRIVILEGES("HTTP/2 over the measured wire");
  wire::TlsConfig tls;
  tls.version = "1.3";
  const wire::TestPki pki(tls, wire::kTlsHost);
  wire::Testbed testbed(link_20_20());
  wire::H2Server server(testbed, tls, &pki);
  const wire::HttpSpec spec = page("message", 100);
  auto [first, again] = wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::H2Client client(testbed, tls, &pki, h2());
    auto batch = client.get(spec, 2);  // two concurrent streams
    return std::pair(batch, client.get(spec, 1));
  });
  ASSERT_EQ(first.size(), 2u);
  for (const auto& r : first) {
    expect_checked(r, 100);
    EXPECT_EQ(r.http.stack, "h2+tls1.3");
    EXPECT_TRUE(r.http.new_connection);
    EXPECT_EQ(r.h2.concurrent, 2);
  }
  EXPECT_EQ(first[0].h2.stream_id, 1);
  EXPECT_EQ(first[1].h2.stream_id, 3);
  EXPECT_TRUE(first[0].http.tls.done);
  EXPECT_EQ(first[0].http.tls.version, "TLSv1.3");
  EXPECT_EQ(first[0].http.server_first_flight_sent, first[0].http.tls.server_first_flight_bytes);
  ASSERT_EQ(again.size(), 1u);
  expect_checked(again[0], 100);
  EXPECT_FALSE(again[0].http.new_connection);
  EXPECT_EQ(again[0].h2.stream_id, 5);
  // The same request again: HPACK's dynamic table holds its fields by now.
  EXPECT_LT(again[0].h2.request_header_block_bytes, first[0].h2.request_header_block_bytes);
  EXPECT_LT(again[0].h2.response_header_block_bytes, first[0].h2.response_header_block_bytes);
  const std::string line = first[0].json(spec, "h2", 0);
  EXPECT_NE(line.find("\"protocol\": \"h2\", \"h2\": {\"stream_id\": 1,"), std::string::npos)
      << line;
  EXPECT_TRUE(server.take_errors().empty());
}

// 164 KB of JSON through the default windows of 65,535 bytes takes
// WINDOW_UPDATEs; through windows raised to 1 MB it takes none.
TEST(H2, CleartextExchangeFollowsTheWindows) {
  SKIP_WITHOUT_PRIVILEGES("HTTP/2 over the measured wire");
  wire::Testbed testbed(link_20_20());
  wire::H2Server server(testbed, {}, nullptr);
  const wire::HttpSpec spec = page("science", 1000);
  std::vector<wire::H2Result> results;
  for (const std::uint32_t window : {0u, 1u << 20}) {
    wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
      wire::H2Client client(testbed, {}, nullptr, h2(window));
      results.push_back(client.get(spec).front());
    });
  }
  const wire::H2Result &narrow = results[0], &wide = results[1];
  expect_checked(narrow, 1000);
  expect_checked(wide, 1000);
  EXPECT_EQ(narrow.http.stack, "h2c");
  EXPECT_EQ(narrow.http.tls_json(), "null");
  EXPECT_GT(narrow.http.body_bytes, 2u * wire::kH2DefaultWindow);
  EXPECT_EQ(narrow.h2.stream_window, wire::kH2DefaultWindow);
  EXPECT_GE(narrow.h2.stream_window_updates, 2);
  EXPECT_GE(narrow.h2.connection_window_updates, 2);
  EXPECT_EQ(wide.h2.stream_window, 1u << 20);
  EXPECT_EQ(wide.h2.stream_window_updates, 0);
  EXPECT_EQ(wide.h2.connection_window_updates, 0);
  EXPECT_TRUE(server.take_errors().empty());
}

// A hand-written server: the client's preface, then a SETTINGS frame and a
// HEADERS frame of 20,000 bytes, beyond the 16,384 the client allows.
TEST(H2, FrameLargerThanMaxFrameSizeIsRefused) {
  SKIP_WITHOUT_PRIVILEGES("HTTP/2 over the measured wire");
  wire::Testbed testbed(link_20_20());
  wire::Fd listener = testbed.tcp_socket(wire::Side::kServer);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(wire::kH2Port);
  ::inet_pton(AF_INET, wire::kServerAddress, &addr.sin_addr);
  ASSERT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener.get(), 1), 0);
  std::string from_client;
  std::thread server([&] {
    pollfd p{listener.get(), POLLIN, 0};
    if (::poll(&p, 1, 10'000) != 1) return;
    wire::Fd conn(::accept(listener.get(), nullptr, nullptr));
    std::string frames = std::string("\0\0\0\4\0\0\0\0\0", 9);  // SETTINGS, empty
    frames += std::string("\0\x4e\x20\1\4\0\0\0\1", 9);         // HEADERS, 20000 bytes, stream 1
    frames += std::string(20'000, '\0');
    ::send(conn.get(), frames.data(), frames.size(), MSG_NOSIGNAL);
    char buf[4096];
    for (;;) {  // what the client sends, until it closes
      pollfd q{conn.get(), POLLIN, 0};
      if (::poll(&q, 1, 10'000) != 1) break;
      const ssize_t n = ::recv(conn.get(), buf, sizeof buf, 0);
      if (n <= 0) break;
      from_client.append(buf, static_cast<std::size_t>(n));
    }
  });
  const auto results = wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::H2Client client(testbed, {}, nullptr, h2());
    return client.get(page("message", 10));
  });
  server.join();
  ASSERT_FALSE(results[0].ok());
  const std::string& error = results[0].http.error;
  EXPECT_NE(error.find("GOAWAY FRAME_SIZE_ERROR"), std::string::npos) << error;
  EXPECT_NE(error.find("longer than the client's SETTINGS_MAX_FRAME_SIZE (16384 bytes)"),
            std::string::npos)
      << error;
  // The client told the server so: a GOAWAY with error code 6 after its preface.
  bool goaway = false;
  for (std::size_t at = 24; at + 9 <= from_client.size();) {
    const auto* b = reinterpret_cast<const unsigned char*>(from_client.data() + at);
    const std::size_t length = std::size_t{b[0]} << 16 | std::size_t{b[1]} << 8 | b[2];
    if (b[3] == 7 && at + 9 + 8 <= from_client.size()) goaway = b[9 + 7] == 6;
    at += 9 + length;
  }
  EXPECT_TRUE(goaway);
}

TEST(H2, BadOptionsGetClearErrors) {
  wire::H2Config config;
  auto error_of = [&](const std::string& option, const std::string& value) {
    try {
      wire::set_h2_option(config, option, value);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error_of("--h2-window", "1000"),
            "--h2-window 1000: is default or bytes from 65535 to 2147483647");
  EXPECT_EQ(error_of("--h2-streams", "0"), "--h2-streams 0: needs an integer from 1 to 100");
  EXPECT_EQ(error_of("--h2-window", "16777216"), "accepted");
  EXPECT_EQ(config.stream_window(), 16'777'216u);
  EXPECT_EQ(config.connection_window(), 16'777'216u);  // follows the stream's
  EXPECT_EQ(error_of("--h2-connection-window", "65535"), "accepted");
  EXPECT_EQ(config.connection_window(), wire::kH2DefaultWindow);
  EXPECT_EQ(error_of("--h2-window", "default"), "accepted");
  EXPECT_EQ(config.stream_window(), wire::kH2DefaultWindow);
  EXPECT_EQ(error_of("--h2-connection-window", "x"),
            "--h2-connection-window x: is default or bytes from 65535 to 2147483647");
}

}  // namespace
