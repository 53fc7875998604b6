// grpc-vs-rest: the format choice most services face, measured on the links
// of tools/links.json. The same page (message/100, science/1000) comes as
// the protobuf codec's messages from a gRPC unary call, and as JSON from
// GET /rows over HTTP/1.1 and over HTTP/2, every one over TLS 1.3 with the
// run's test CA; each with its own compression (gRPC's message gzip, HTTP's
// Content-Encoding gzip) and without. Cold is a call on a new connection
// (TCP, TLS and, for gRPC and h2, HTTP/2's preface), warm the next call on it.
// The calls run in rounds, the stacks' order turning each round, so a slow
// spell of the host lands on all of them; each series gives its median and a
// distribution-free interval of it, and the link's bytes each way.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <thread>

#include "wire/grpc_call.hpp"
#include "wire/h2_client.hpp"
#include "wire/h2_server.hpp"
#include "wire/netns.hpp"
#include "wire/scenario.hpp"
#include "wire/tls_pki.hpp"

namespace wire {
namespace {

constexpr char kName[] = "grpc-vs-rest";
// Six rounds: the smallest sample whose [min, max] covers the median at
// 95 % or more (96.9 %).
constexpr int kRounds = 6;

// tools/links.json's profiles.
struct Profile {
  const char* name;
  double rate_mbps, rtt_ms;
};
constexpr Profile kProfiles[] = {{"wan", 100, 40}, {"mobile", 5, 120}, {"lan", 1000, 0.5}};

struct Page {
  const char* dataset;
  int rows;
};
constexpr Page kPages[] = {{"message", 100}, {"science", 1000}};

// A stack with a compression: "grpc", "http1+tls1.3" or "h2+tls1.3"; "none"
// or "gzip".
struct Variant {
  std::string stack, compression;
  std::string format() const { return stack == "grpc" ? "protobuf" : "json"; }
};

struct Sample {
  double total_ms = 0, first_byte_ms = 0, encode_ms = 0;
  std::uint64_t up = 0, down = 0, payload = 0;
  bool ok = false;
};

struct LinkBytes {
  std::uint64_t up, down;
};
LinkBytes link_bytes(const Testbed& testbed) {
  return {testbed.forwarder().stats(Direction::kClientToServer).bytes_in,
          testbed.forwarder().stats(Direction::kServerToClient).bytes_in};
}

// The median and [x_(k), x_(n+1-k)] with k from the Binomial(n, 1/2) tail,
// as tools/wbtools/stats.py's median_interval (its coverage alongside).
struct Summary {
  double median = 0, low = 0, high = 0, coverage = 0;
};
Summary summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  // Largest k with P(X < k) <= 2.5 %, at least 1 ([min, max]).
  std::size_t k = 0;
  double below = 0;
  while (k < n) {
    const double next = below + std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) -
                                         std::lgamma(n - k + 1.0) - n * std::log(2.0));
    if (next > 0.025) break;
    below = next;
    ++k;
  }
  k = std::max<std::size_t>(k, 1);
  s.low = v[k - 1];
  s.high = v[n - k];
  s.coverage = 1 - 2 * below;
  if (k == 1) s.coverage = 1 - std::pow(2.0, 1.0 - static_cast<double>(n));
  return s;
}

template <class Field>
double median_of(const std::vector<Sample>& samples, Field field) {
  std::vector<double> v;
  for (const auto& s : samples) v.push_back(static_cast<double>(s.*field));
  return summarize(v).median;
}

// The clients of one link, made in the client namespace.
class Fetcher {
 public:
  Fetcher(const Testbed& testbed, const TlsConfig& tls, const TestPki& pki, const H2Config& h2)
      : testbed_(testbed),
        http1_(testbed, tls, &pki),
        h2_(testbed, tls, &pki, h2),
        grpc_(testbed, pki) {}

  Sample fetch(const Variant& v, const Page& page, bool cold, const std::string& series,
               int index) {
    HttpSpec spec;
    spec.dataset = page.dataset;
    spec.rows = page.rows;
    spec.format = v.format();
    spec.reconnect = cold;
    Sample s;
    if (v.stack == "grpc") {
      spec.encoder = field_codec("protobuf", wb::Role::encode);
      validate(spec);
      GrpcConfig grpc;
      grpc.enabled = true;
      grpc.compression = v.compression;
      const GrpcResult r = grpc_.call(spec, grpc, cold);
      std::printf("%s\n", r.json(spec, series, index).c_str());
      return {r.total_ms,        r.first_byte_ms, r.server_encode_ms, r.link_up_bytes,
              r.link_down_bytes, r.message_bytes, r.ok() && r.checked};
    }
    spec.encoder = field_codec("json", wb::Role::encode);
    spec.decoder = field_codec("json", wb::Role::decode);
    spec.encoding = v.compression == "gzip" ? "gzip" : "identity";
    validate(spec);
    const LinkBytes before = link_bytes(testbed_);
    HttpResult r;
    if (v.stack == "h2+tls1.3") {
      const H2Result h = h2_.get(spec, 1).front();
      std::printf("%s\n", h.json(spec, series, index).c_str());
      r = h.http;
    } else {
      r = http1_.get(spec);
      std::printf("%s\n", r.json(spec, series, index).c_str());
    }
    const LinkBytes after = link_bytes(testbed_);
    return {r.total_ms,           r.first_byte_ms,          r.server_encode_ms,
            after.up - before.up, after.down - before.down, r.body_bytes,
            r.ok() && r.checked};
  }

  // Closes the HTTP connections (gRPC's channel closes at its next cold call).
  void close() {
    http1_.close();
    h2_.close();
  }

 private:
  const Testbed& testbed_;
  HttpClient http1_;
  H2Client h2_;
  GrpcClient grpc_;
};

void print_series(const Profile& p, const Page& page, const Variant& v, bool cold,
                  const std::vector<Sample>& samples) {
  std::vector<double> totals;
  int failed = 0;
  for (const auto& s : samples) {
    totals.push_back(s.total_ms);
    failed += s.ok ? 0 : 1;
  }
  const Summary t = summarize(totals);
  const std::string series = std::string(p.name) + " " + page.dataset + "/" +
                             std::to_string(page.rows) + " " + v.stack + " " + v.format() + " " +
                             v.compression + (cold ? " cold" : " warm");
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": \"%s\", \"series\": %s, \"link\": \"%s\", "
      "\"dataset\": \"%s\", \"rows\": %d, \"stack\": %s, \"format\": %s, \"compression\": %s, "
      "\"connection\": \"%s\", \"samples\": %zu, \"failed\": %d, \"median_ms\": %s, "
      "\"low_ms\": %s, \"high_ms\": %s, \"coverage\": %s, \"first_byte_median_ms\": %s, "
      "\"server_encode_median_ms\": %s, \"payload_bytes\": %.0f, \"link_down_bytes\": %.0f, "
      "\"link_up_bytes\": %.0f}\n",
      kName, json_string(series).c_str(), p.name, page.dataset, page.rows,
      json_string(v.stack).c_str(), json_string(v.format()).c_str(),
      json_string(v.compression).c_str(), cold ? "cold" : "warm", samples.size(), failed,
      fixed(t.median).c_str(), fixed(t.low).c_str(), fixed(t.high).c_str(),
      fixed(t.coverage, 3).c_str(), fixed(median_of(samples, &Sample::first_byte_ms)).c_str(),
      fixed(median_of(samples, &Sample::encode_ms)).c_str(), median_of(samples, &Sample::payload),
      median_of(samples, &Sample::down), median_of(samples, &Sample::up));
}

// gRPC against JSON over h2 and over HTTP/1.1, with the same compression:
// the ratio of the medians (below 1: gRPC is faster).
void print_comparison(const Profile& p, const Page& page, const std::string& compression, bool cold,
                      const std::map<std::string, std::vector<Sample>>& by_stack) {
  auto median = [&](const char* stack) { return median_of(by_stack.at(stack), &Sample::total_ms); };
  const double grpc = median("grpc"), h2 = median("h2+tls1.3"), http1 = median("http1+tls1.3");
  const std::string series = std::string(p.name) + " " + page.dataset + "/" +
                             std::to_string(page.rows) + " " + compression +
                             (cold ? " cold" : " warm");
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": \"%s\", \"series\": %s, \"grpc_ms\": %s, "
      "\"h2_json_ms\": %s, \"http1_json_ms\": %s, \"grpc_over_h2_json\": %s, "
      "\"grpc_over_http1_json\": %s}\n",
      kName, json_string(series).c_str(), fixed(grpc).c_str(), fixed(h2).c_str(),
      fixed(http1).c_str(), fixed(grpc / h2, 3).c_str(), fixed(grpc / http1, 3).c_str());
  std::fprintf(stderr,
               "wirebench_wire: %s: %s: gRPC %.1f ms, h2 JSON %.1f ms, HTTP/1.1 JSON %.1f ms\n",
               kName, series.c_str(), grpc, h2, http1);
}

int run_profile(const TestbedConfig& base, const Profile& p, const TlsConfig& tls,
                const TestPki& pki) {
  TestbedConfig config = base;
  config.rate_mbps = p.rate_mbps;
  config.rtt_ms = p.rtt_ms;
  ScenarioBed bed(kName, config, tls, &pki);
  GrpcServer grpc(bed.testbed(), pki);
  H2Config h2;
  h2.enabled = true;
  // A window raised as clients that move bulk data raise it; what the
  // default costs is docs/wire-h2.md's.
  h2.window = 16 << 20;
  H2Server h2_server(bed.testbed(), tls, &pki);
  std::vector<Variant> variants;
  for (const char* stack : {"grpc", "h2+tls1.3", "http1+tls1.3"}) {
    for (const char* compression : {"none", "gzip"}) variants.push_back({stack, compression});
  }
  // [page][variant][cold] → samples
  std::map<std::string, std::vector<Sample>> samples;
  auto key = [](const Page& page, const Variant& v, bool cold) {
    return std::string(page.dataset) + v.stack + v.compression + (cold ? "c" : "w");
  };
  const auto gap = std::chrono::microseconds(static_cast<long>((2 * p.rtt_ms + 1) * 1e3));
  run_in(bed.testbed().namespace_name(Side::kClient), [&] {
    Fetcher fetcher(bed.testbed(), tls, pki, h2);
    for (int round = 0; round < kRounds; ++round) {
      for (const Page& page : kPages) {
        for (std::size_t i = 0; i < variants.size(); ++i) {
          const Variant& v = variants[(i + static_cast<std::size_t>(round)) % variants.size()];
          const std::string series =
              std::string(p.name) + " " + page.dataset + " " + v.stack + " " + v.compression;
          for (const bool cold : {true, false}) {
            samples[key(page, v, cold)].push_back(
                fetcher.fetch(v, page, cold, series + (cold ? " cold" : " warm"), round));
          }
          fetcher.close();
          std::this_thread::sleep_for(gap);  // the closed connection's FINs clear the link
        }
      }
      std::fflush(stdout);
      std::fprintf(stderr, "wirebench_wire: %s: %s: round %d of %d\n", kName, p.name, round + 1,
                   kRounds);
    }
  });
  int failed = 0;
  for (const Page& page : kPages) {
    for (const bool cold : {true, false}) {
      for (const Variant& v : variants) {
        const auto& s = samples[key(page, v, cold)];
        print_series(p, page, v, cold, s);
        for (const auto& one : s) failed += one.ok ? 0 : 1;
      }
    }
  }
  for (const Page& page : kPages) {
    for (const bool cold : {true, false}) {
      for (const char* compression : {"none", "gzip"}) {
        std::map<std::string, std::vector<Sample>> by_stack;
        for (const Variant& v : variants) {
          if (v.compression == compression) by_stack[v.stack] = samples[key(page, v, cold)];
        }
        print_comparison(p, page, compression, cold, by_stack);
      }
    }
  }
  for (const auto& e : h2_server.take_errors()) {
    std::printf("{\"type\": \"http_server_error\", \"error\": %s}\n", json_string(e).c_str());
  }
  bed.flush_server_errors();
  return failed;
}

}  // namespace

int run_grpc_vs_rest(const TestbedConfig& base) {
  TlsConfig tls;
  tls.version = "1.3";
  const TestPki pki(tls, kTlsHost);
  std::fprintf(stderr, "wirebench_wire: %s: gRPC %s\n", kName, grpc_version().c_str());
  int failed = 0;
  for (const Profile& p : kProfiles) {
    // A link whose self-check fails (lan's 1 Gbit/s asks most of a loaded
    // host) is left out, saying why; the others still run.
    try {
      failed += run_profile(base, p, tls, pki);
    } catch (const std::runtime_error& e) {
      std::printf("{\"type\": \"link_left_out\", \"link\": \"%s\", \"why\": %s}\n", p.name,
                  json_string(e.what()).c_str());
      std::fprintf(stderr, "wirebench_wire: %s: %s left out: %s\n", kName, p.name, e.what());
      ++failed;
    }
  }
  std::fflush(stdout);
  return failed ? 1 : 0;
}

}  // namespace wire
