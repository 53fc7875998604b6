// gRPC on the measured wire (wire/grpc_*): a call over the emulated link
// decodes and checks its rows, and the link carries it (its bytes each way);
// a second call on the kept-alive channel with gzip carries fewer bytes than
// the message; a client that asks for another host name fails the handshake
// with a clear error; bad option values get one clear error each; a result
// survives its line from the client process to the parent. Asserts
// what the calls are, never how long they took. Needs root and /dev/net/tun;
// skipped otherwise.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/wire_support.hpp"
#include "wire/grpc_call.hpp"
#include "wire/grpc_config.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_pki.hpp"

namespace {

using wb::test::link_20_20;

// gRPC answers with the protobuf codec's messages.
wire::HttpSpec protobuf_page(const std::string& dataset, int rows) {
  return wb::test::page(dataset, rows, "protobuf", "libprotobuf");
}

wire::GrpcConfig compression(const std::string& name) {
  wire::GrpcConfig grpc;
  grpc.enabled = true;
  grpc.compression = name;
  return grpc;
}

wire::TlsConfig tls13() {
  wire::TlsConfig tls;
  tls.version = "1.3";
  return tls;
}

TEST(Grpc, CallOverTheLinkIsDecodedAndChecked) {
  SKIP_WITHOUT_PRIVILEGES("gRPC over the measured wire");
  const wire::TestPki pki(tls13(), wire::kTlsHost);
  wire::Testbed testbed(link_20_20());
  wire::GrpcServer server(testbed, pki);
  wire::GrpcClient client(testbed, pki);
  const wire::HttpSpec spec = protobuf_page("science", 1000);

  const wire::GrpcResult cold = client.call(spec, compression("none"), true);
  ASSERT_TRUE(cold.ok()) << cold.error;
  EXPECT_TRUE(cold.checked);
  EXPECT_TRUE(cold.new_channel);
  EXPECT_EQ(cold.rows, 1000);
  EXPECT_GT(cold.message_bytes, 0u);
  // The message crossed the link, with the TLS handshake before it.
  EXPECT_GT(cold.link_down_bytes, cold.message_bytes);
  EXPECT_GT(cold.link_up_bytes, 0u);
  EXPECT_GT(cold.connect_ms, 0);
  EXPECT_GE(cold.last_byte_ms, cold.first_byte_ms);

  const wire::GrpcResult warm = client.call(spec, compression("gzip"), false);
  ASSERT_TRUE(warm.ok()) << warm.error;
  EXPECT_TRUE(warm.checked);
  EXPECT_FALSE(warm.new_channel);
  EXPECT_EQ(warm.message_bytes, cold.message_bytes);
  // gzip, on the open connection: fewer bytes at the link than the message.
  EXPECT_LT(warm.link_down_bytes, warm.message_bytes);
}

TEST(Grpc, WrongHostNameFailsTheHandshake) {
  SKIP_WITHOUT_PRIVILEGES("gRPC over the measured wire");
  const wire::TestPki pki(tls13(), wire::kTlsHost);
  wire::Testbed testbed(link_20_20());
  wire::GrpcServer server(testbed, pki);
  wire::GrpcClient client(testbed, pki, "other.wirebench.test");
  const wire::GrpcResult r = client.call(protobuf_page("message", 10), compression("none"), true);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.checked);
  EXPECT_EQ(r.rows, 0);
  EXPECT_NE(r.error.find("gRPC status 14"), std::string::npos) << r.error;  // UNAVAILABLE
  EXPECT_NE(r.error.find("other.wirebench.test"), std::string::npos) << r.error;
}

// The message of what fn throws as std::invalid_argument.
template <class F>
std::string refusal(F fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "nothing thrown";
}

TEST(Grpc, BadOptionsGetOneClearError) {
  wire::GrpcConfig grpc;
  EXPECT_EQ(refusal([&] { wire::set_grpc_option(grpc, "--grpc-compression", "br"); }),
            "--grpc-compression br: is gzip or none");
  wire::TlsConfig tls12;
  tls12.version = "1.2";
  EXPECT_NE(refusal([&] { wire::check_grpc_tls(tls12, false); }).find("TLS 1.3 only"),
            std::string::npos);
  EXPECT_NE(refusal([&] { wire::check_grpc_tls(tls13(), true); }).find("--tls-cipher"),
            std::string::npos);
  wire::HttpSpec json = protobuf_page("message", 10);
  json.format = "json";
  EXPECT_NE(refusal([&] { wire::check_grpc_spec(json); }).find("format=protobuf"),
            std::string::npos);
  wire::HttpSpec gzip = protobuf_page("message", 10);
  gzip.encoding = "gzip";
  EXPECT_NE(refusal([&] { wire::check_grpc_spec(gzip); }).find("--grpc-compression"),
            std::string::npos);
  wire::HttpSpec good = protobuf_page("message", 10);
  EXPECT_EQ(refusal([&] { wire::check_grpc_spec(good); }), "nothing thrown");
}

// The client process sends its results to the parent as one line each.
TEST(Grpc, ResultLineRoundTrips) {
  wire::GrpcResult r;
  r.new_channel = true;
  r.connect_ms = 125.875;
  r.first_byte_ms = 168.25;
  r.last_byte_ms = 168.5;
  r.convert_ms = 0.003;
  r.total_ms = 168.503;
  r.server_encode_ms = 0.031;
  r.message_bytes = 2417;
  r.rows = 100;
  r.compression = "gzip";
  r.error = "first line\nsecond line";
  const wire::GrpcResult back = wire::GrpcResult::parse(r.serialize());
  EXPECT_TRUE(back.new_channel);
  EXPECT_EQ(back.connect_ms, r.connect_ms);
  EXPECT_EQ(back.total_ms, r.total_ms);
  EXPECT_EQ(back.message_bytes, 2417u);
  EXPECT_EQ(back.rows, 100);
  EXPECT_FALSE(back.checked);
  EXPECT_EQ(back.compression, "gzip");
  EXPECT_EQ(back.error, "first line second line");
  EXPECT_THROW(wire::GrpcResult::parse("not a result"), std::runtime_error);
}

}  // namespace
