// A real HTTP/1.1 exchange over the emulated link (wire/http_*): the server
// encodes and compresses a page per request, the client decompresses,
// decodes and checks the rows; a 401 challenge costs a second request; a
// server that drops the connection mid-body ends that request with an error
// and the next one succeeds. Needs root and /dev/net/tun; skipped otherwise.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codecs/registry.hpp"
#include "tests/test_support.hpp"
#include "tests/wire_support.hpp"
#include "wire/http_client.hpp"
#include "wire/http_server.hpp"
#include "wire/http_spec.hpp"
#include "wire/netns.hpp"
#include "wire/scenario.hpp"
#include "wire/testbed.hpp"

namespace {

using wb::test::link_20_20;

wire::HttpSpec message_page(const std::string& encoding) {
  wire::HttpSpec spec;
  spec.dataset = "message";
  spec.rows = 100;
  spec.format = "json";
  spec.encoding = encoding;
  wire::validate(spec);
  return spec;
}

TEST(Http, OneExchangeIsDecodedAndChecked) {
  SKIP_WITHOUT_PRIVILEGES("the HTTP exchange over the measured wire");
  SKIP_WITHOUT("compress.zstd");
  wire::Testbed testbed(link_20_20());
  wire::HttpServer server(testbed);
  const wire::HttpSpec spec = message_page("zstd");
  auto [first, second] = wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::HttpClient client(testbed);
    wire::HttpResult a = client.get(spec);
    return std::pair(a, client.get(spec));
  });
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_EQ(first.status, 200);
  EXPECT_TRUE(first.checked);
  EXPECT_EQ(first.rows, 100);
  EXPECT_LT(first.body_bytes, first.raw_bytes);  // zstd did compress
  EXPECT_TRUE(first.new_connection);
  // connect() takes one round trip of the 20 ms link.
  EXPECT_GT(first.handshake_ms, 19.0);
  EXPECT_GE(first.last_byte_ms, first.first_byte_ms);
  ASSERT_TRUE(second.ok()) << second.error;
  EXPECT_FALSE(second.new_connection);  // kept alive
  EXPECT_TRUE(second.checked);
  EXPECT_TRUE(server.take_errors().empty());
}

// Every binary format of the registry is served with its media type and
// decoded and checked by the client, compressed and not.
TEST(Http, BinaryFormatsAreServedWithTheirMediaTypes) {
  SKIP_WITHOUT_PRIVILEGES("the HTTP exchange over the measured wire");
  std::vector<wire::HttpSpec> specs;
  for (std::string_view format : wb::formats()) {
    if (wb::find_format(format)->syntax != wb::Syntax::binary) continue;
    for (const char* encoding : {"identity", "zstd"}) {
      if (wb::test::left_out_of_build("compress." + std::string(encoding))) continue;
      wire::HttpSpec spec;
      spec.dataset = "airport";
      spec.rows = 101;
      spec.format = std::string(format);
      spec.encoder = std::string(wb::codecs_of(format, wb::Role::encode).front()->library);
      spec.encoding = encoding;
      wire::validate(spec);
      specs.push_back(spec);
    }
  }
  if (specs.empty()) GTEST_SKIP() << "no binary format is registered";
  wire::Testbed testbed(link_20_20());
  wire::HttpServer server(testbed);
  const std::vector<wire::HttpResult> results =
      wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
        wire::HttpClient client(testbed);
        std::vector<wire::HttpResult> out;
        for (const wire::HttpSpec& spec : specs) out.push_back(client.get(spec));
        return out;
      });
  for (std::size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(specs[i].format + " " + specs[i].encoding);
    ASSERT_TRUE(results[i].ok()) << results[i].error;
    EXPECT_TRUE(results[i].checked);
    EXPECT_EQ(results[i].rows, 101);
    EXPECT_EQ(results[i].content_type, wire::content_type(specs[i].format));
    EXPECT_EQ(results[i].content_type, wb::find_format(specs[i].format)->media_type);
  }
  EXPECT_TRUE(server.take_errors().empty());
}

TEST(Http, ChallengeThenRetryWithCredentials) {
  SKIP_WITHOUT_PRIVILEGES("the HTTP exchange over the measured wire");
  wire::Testbed testbed(link_20_20());
  wire::HttpServer server(testbed);
  wire::HttpSpec spec = message_page("gzip");
  spec.challenge = true;
  wire::HttpResult r = wire::run_in(testbed.namespace_name(wire::Side::kClient),
                                    [&] { return wire::HttpClient(testbed).get(spec); });
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.attempts, 2);
  EXPECT_TRUE(r.checked);
  // The 401 is one more round trip after the connect's.
  EXPECT_GT(r.challenge_ms, 2 * 19.0);
}

TEST(Http, ServerDyingMidResponseEndsOnlyThatRequest) {
  SKIP_WITHOUT_PRIVILEGES("the HTTP exchange over the measured wire");
  SKIP_WITHOUT("compress.br");
  wire::Testbed testbed(link_20_20());
  wire::HttpServer server(testbed);
  wire::HttpSpec dying = message_page("identity");
  dying.fault = "die";
  const wire::HttpSpec good = message_page("br");
  auto [failed, next] = wire::run_in(testbed.namespace_name(wire::Side::kClient), [&] {
    wire::HttpClient client(testbed);
    wire::HttpResult a = client.get(dying);
    return std::pair(a, client.get(good));
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_NE(failed.error.find("Read"), std::string::npos) << failed.error;
  ASSERT_TRUE(next.ok()) << next.error;
  EXPECT_TRUE(next.new_connection);
  EXPECT_TRUE(next.checked);
}

}  // namespace

// SPEC warmup=1: a checked call on a connection of its own comes first, its
// line's series "warmup", and the timed calls after it open a connection of
// their own, so the first timed call is a cold one that is not the process's
// first exchange.
TEST(Http, WarmupCallComesFirstOnItsOwnConnection) {
  SKIP_WITHOUT_PRIVILEGES("the HTTP exchange over the measured wire");
  wire::Testbed testbed(link_20_20());
  wire::HttpSpec spec = message_page("identity");
  spec.warmup = 1;
  spec.requests = 2;
  testing::internal::CaptureStdout();
  const bool ok = wire::run_http(testbed, spec);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  std::vector<std::string> calls;
  for (std::size_t at = 0, end; (end = out.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string line = out.substr(at, end - at);
    if (line.find("\"http_request\"") != std::string::npos) calls.push_back(line);
  }
  ASSERT_EQ(calls.size(), 3u) << out;
  const auto has = [](const std::string& line, const std::string& text) {
    return line.find(text) != std::string::npos;
  };
  EXPECT_TRUE(has(calls[0], "\"series\": \"warmup\"")) << calls[0];
  EXPECT_TRUE(has(calls[0], "\"checked\": true")) << calls[0];
  EXPECT_TRUE(has(calls[1], "\"series\": \"http\"")) << calls[1];
  EXPECT_TRUE(has(calls[1], "\"connection\": \"new\"")) << calls[1];
  EXPECT_TRUE(has(calls[2], "\"connection\": \"kept-alive\"")) << calls[2];
}
