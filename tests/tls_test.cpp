// TLS on the measured wire (wire/tls_*): TLS 1.3 and 1.2 exchanges over the
// emulated link decode and check their rows and report their handshakes; the
// client refuses a certificate for another host name and one from a CA it
// does not trust; a resumed connection says so and costs fewer bytes; a
// chain of three padded certificates overflows the initial window; 0-RTT
// early data is accepted, and a rejected request is resent. Asserts
// what the handshake is, never how long it took. Needs root and
// /dev/net/tun; skipped otherwise.

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/wire_support.hpp"
#include "wire/http_client.hpp"
#include "wire/http_server.hpp"
#include "wire/http_spec.hpp"
#include "wire/netns.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"
#include "wire/tls_pki.hpp"

namespace {

using wb::test::link_20_20;

wire::HttpSpec message_page(int requests, bool reconnect) {
  wire::HttpSpec spec;
  spec.dataset = "message";
  spec.rows = 100;
  spec.requests = requests;
  spec.reconnect = reconnect;
  wire::validate(spec);
  return spec;
}

wire::TlsConfig tls(const std::string& version) {
  wire::TlsConfig config;
  config.version = version;
  return config;
}

// spec.requests requests from a client trusting client_pki to a server
// serving server_pki's chain.
std::vector<wire::HttpResult> exchange(const wire::TlsConfig& config, const wire::HttpSpec& spec,
                                       const wire::TestPki& server_pki,
                                       const wire::TestPki& client_pki) {
  wire::Testbed testbed(link_20_20());
  wire::HttpServer server(testbed, config, &server_pki);
  return wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::HttpClient client(testbed, config, &client_pki);
    std::vector<wire::HttpResult> out;
    for (int i = 0; i < spec.requests; ++i) out.push_back(client.get(spec));
    return out;
  });
}

std::vector<wire::HttpResult> exchange(const wire::TlsConfig& config, const wire::HttpSpec& spec) {
  const wire::TestPki pki(config, wire::kTlsHost);
  return exchange(config, spec, pki, pki);
}

void expect_cold_handshake(const wire::HttpResult& r, const std::string& version, int rtts) {
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.checked);
  EXPECT_EQ(r.rows, 100);
  EXPECT_TRUE(r.new_connection);
  EXPECT_TRUE(r.tls.done);
  EXPECT_EQ(r.tls.version, version);
  EXPECT_EQ(r.tls.group, "X25519");
  EXPECT_FALSE(r.tls.resumed);
  EXPECT_EQ(r.tls.flights_rtts, rtts);
  EXPECT_GT(r.tls.bytes_sent, 0u);
  // The server's certificate chain came to the client.
  EXPECT_GT(r.tls.bytes_received, 1000u);
  EXPECT_GT(r.tls.server_first_flight_bytes, 1000u);
  EXPECT_LE(r.tls.server_first_flight_bytes, r.tls.bytes_received);
  // Both sides saw the same first flight.
  EXPECT_EQ(r.server_first_flight_sent, r.tls.server_first_flight_bytes);
  EXPECT_GT(r.tls.cpu_ms, 0.0);
  EXPECT_GT(r.server_tls_cpu_ms, 0.0);
  EXPECT_EQ(r.stack, "http1+tls" + version.substr(4));
  const std::string row = r.json(message_page(1, false), "tls", 0);
  EXPECT_NE(row.find("\"tls\": {\"version\": \"" + version + "\""), std::string::npos) << row;
  EXPECT_NE(row.find("\"handshake_rtts\": " + std::to_string(rtts)), std::string::npos) << row;
}

TEST(Tls, Tls13ExchangeIsDecodedAndChecked) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  const auto results = exchange(tls("1.3"), message_page(2, false));
  expect_cold_handshake(results[0], "TLSv1.3", 1);
  EXPECT_EQ(results[0].tls.cipher, "TLS_AES_128_GCM_SHA256");
  // The second request went on the same connection, with no handshake.
  ASSERT_TRUE(results[1].ok()) << results[1].error;
  EXPECT_FALSE(results[1].new_connection);
  EXPECT_TRUE(results[1].checked);
  EXPECT_EQ(results[1].tls_json(), "null");
}

TEST(Tls, Tls12WithRsaAndChaChaIsDecodedAndChecked) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  wire::TlsConfig config = tls("1.2");
  config.key = "rsa";
  config.cipher = "chacha20";
  const auto results = exchange(config, message_page(1, false));
  expect_cold_handshake(results[0], "TLSv1.2", 2);
  EXPECT_EQ(results[0].tls.cipher, "ECDHE-RSA-CHACHA20-POLY1305");
}

TEST(Tls, CertificateForAnotherHostIsRefused) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  const wire::TlsConfig config = tls("1.3");
  const wire::TestPki other_host(config, "other.wirebench.test");
  const auto results = exchange(config, message_page(1, false), other_host, other_host);
  ASSERT_FALSE(results[0].ok());
  EXPECT_FALSE(results[0].tls.done);
  EXPECT_NE(results[0].error.find("hostname mismatch"), std::string::npos) << results[0].error;
  EXPECT_EQ(results[0].status, 0);  // no request went out
}

TEST(Tls, CertificateFromAnUnknownCaIsRefused) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  const wire::TlsConfig config = tls("1.2");
  const wire::TestPki served(config, wire::kTlsHost), trusted(config, wire::kTlsHost);
  const auto results = exchange(config, message_page(1, false), served, trusted);
  ASSERT_FALSE(results[0].ok());
  EXPECT_FALSE(results[0].tls.done);
  EXPECT_NE(results[0].error.find("unable to get local issuer certificate"), std::string::npos)
      << results[0].error;
}

TEST(Tls, ResumedConnectionSaysSoAndCostsFewerBytes) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  for (const char* version : {"1.3", "1.2"}) {
    SCOPED_TRACE(version);
    wire::TlsConfig config = tls(version);
    config.resume = true;
    const auto results = exchange(config, message_page(2, true));
    ASSERT_TRUE(results[0].ok()) << results[0].error;
    ASSERT_TRUE(results[1].ok()) << results[1].error;
    const wire::TlsHandshake &cold = results[0].tls, &resumed = results[1].tls;
    EXPECT_TRUE(results[1].new_connection);
    EXPECT_FALSE(cold.resumed);
    EXPECT_TRUE(resumed.resumed);
    EXPECT_TRUE(results[1].server_tls_resumed);
    EXPECT_EQ(resumed.flights_rtts, 1);
    // No certificate this time.
    EXPECT_LT(resumed.bytes_received, cold.bytes_received);
    EXPECT_LT(resumed.bytes_received + resumed.bytes_sent, cold.bytes_received + cold.bytes_sent);
    EXPECT_TRUE(results[1].checked);
  }
}

// TLS 1.3 0-RTT: the first request has no session (not sent), the second
// goes as early data on a resumed connection and the server accepts it (a
// fresh single-use ticket); a new server knows no ticket, so the third
// request's early data is rejected, resent after the handshake and still
// checked.
TEST(Tls, EarlyDataIsAcceptedAndARejectedRequestIsResent) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  wire::TlsConfig config = tls("1.3");
  config.early_data = config.resume = true;
  const wire::HttpSpec spec = message_page(1, true);
  const wire::TestPki pki(config, wire::kTlsHost);
  wire::Testbed testbed(link_20_20());
  auto server = std::make_unique<wire::HttpServer>(testbed, config, &pki);
  const auto results = wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::HttpClient client(testbed, config, &pki);
    std::vector<wire::HttpResult> out;
    out.push_back(client.get(spec));
    out.push_back(client.get(spec));
    server.reset();
    server = std::make_unique<wire::HttpServer>(testbed, config, &pki);
    out.push_back(client.get(spec));
    return out;
  });
  for (const auto& r : results) {
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.checked);
    EXPECT_EQ(r.rows, 100);
    EXPECT_TRUE(r.new_connection);
    EXPECT_TRUE(r.tls.done);
  }
  const wire::HttpResult &cold = results[0], &early = results[1], &rejected = results[2];
  EXPECT_EQ(cold.early_data, "not_sent");
  EXPECT_EQ(cold.server_early_data, "not_sent");
  EXPECT_EQ(cold.early_data_bytes, 0u);
  EXPECT_FALSE(cold.tls.resumed);

  EXPECT_EQ(early.early_data, "accepted");
  EXPECT_EQ(early.server_early_data, "accepted");
  EXPECT_TRUE(early.tls.resumed);
  EXPECT_TRUE(early.server_tls_resumed);
  EXPECT_FALSE(early.early_data_resent);
  EXPECT_GT(early.early_data_bytes, 50u);  // the request's head
  // Its record: the request, 5 bytes of header, 16 of tag, 1 of type.
  EXPECT_EQ(early.tls.early_data_sent, early.early_data_bytes + 22);
  EXPECT_EQ(early.tls.flights_rtts, 1);
  // The handshake's bytes hold the ClientHello but not the early data, and
  // the server's first flight not its answer (0.5-RTT data): both ends agree.
  EXPECT_GT(early.tls.bytes_sent, early.tls.early_data_sent);
  EXPECT_EQ(early.server_first_flight_sent, early.tls.server_first_flight_bytes);
  EXPECT_LT(early.tls.server_first_flight_bytes, 1000u);
  const std::string row = early.json(spec, "tls", 1);
  EXPECT_NE(row.find("\"early_data\": \"accepted\""), std::string::npos) << row;

  EXPECT_EQ(rejected.early_data, "rejected");
  EXPECT_TRUE(rejected.early_data_resent);
  EXPECT_GT(rejected.early_data_bytes, 0u);
  EXPECT_FALSE(rejected.tls.resumed);
}

// Padded as a shared certificate is, one certificate's first flight fits in
// the initial window of 10 segments of 1448 bytes, three overflow it.
TEST(Tls, ThreeCertificateChainOverflowsTheInitialWindow) {
  SKIP_WITHOUT_PRIVILEGES("TLS over the measured wire");
  constexpr std::uint64_t kInitialWindow = 10 * 1448;
  std::vector<std::uint64_t> flights;
  for (int chain : {1, 3}) {
    wire::TlsConfig config = tls("1.3");
    config.chain = chain;
    const auto results = exchange(config, message_page(1, false));
    ASSERT_TRUE(results[0].ok()) << results[0].error;
    flights.push_back(results[0].tls.server_first_flight_bytes);
  }
  EXPECT_LT(flights[0], kInitialWindow);
  EXPECT_GT(flights[1], kInitialWindow);
}

TEST(Tls, BadOptionsGetClearErrors) {
  wire::TlsConfig config;
  auto error_of = [&](const std::string& option, const std::string& value) {
    try {
      wire::set_tls_option(config, option, value);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error_of("--tls", "1.1"), "--tls is 1.3 or 1.2");
  EXPECT_EQ(error_of("--tls-cert", "dsa"), "--tls-cert is ecdsa or rsa");
  EXPECT_EQ(error_of("--tls-chain", "4"), "--tls-chain 4: needs an integer from 1 to 3");
  EXPECT_EQ(error_of("--tls-chain", "x"), "--tls-chain x: needs an integer from 1 to 3");
  EXPECT_EQ(error_of("--tls-cipher", "rc4"), "--tls-cipher is aes128gcm or chacha20");
  EXPECT_EQ(error_of("--tls", "1.2"), "accepted");
  EXPECT_EQ(config.stack(), "http1+tls1.2");
}

}  // namespace
