#include "wire/scenario.hpp"

#include <httplib.h>
#include <openssl/crypto.h>

#include <cstdio>
#include <stdexcept>

#include "wire/netns.hpp"
#include "wire/self_check.hpp"
#include "wire/tls_pki.hpp"
#include "wire/warmup.hpp"

namespace wire {
namespace {

void print_context(const std::string& scenario, const Testbed& testbed) {
  std::printf(
      "{\"type\": \"context\", \"scenario\": %s, \"link\": %s, \"http\": {\"library\": "
      "\"cpp-httplib\", \"version\": %s}}\n",
      json_string(scenario).c_str(), testbed.context_json().c_str(),
      json_string(CPPHTTPLIB_VERSION).c_str());
  std::fflush(stdout);
}

}  // namespace

ScenarioBed::ScenarioBed(const std::string& scenario, const TestbedConfig& config,
                         const TlsConfig& tls, const TestPki* pki) {
  testbed_ = std::make_unique<Testbed>(config);
  for (const auto& name : testbed_->removed_stale()) {
    std::fprintf(stderr, "wirebench_wire: removed stale namespace %s\n", name.c_str());
  }
  raw_ = std::make_unique<Server>(*testbed_);
  std::fprintf(stderr, "wirebench_wire: %s: self-check of the link (%.3f Mbit/s, %.1f ms)\n",
               scenario.c_str(), config.rate_mbps, config.rtt_ms);
  // Up to three tries: one scheduler stall on a shared machine fails a
  // check, a wrong link fails all three.
  CheckResult check;
  for (int attempt = 0; attempt < 3 && !check.ok; ++attempt) {
    check = run_self_check(*testbed_, true);
  }
  if (!check.ok) {
    throw std::runtime_error("self-check failed, nothing reported: " + check.failure);
  }
  http_ = std::make_unique<HttpServer>(*testbed_, tls, pki);
  print_context(scenario, *testbed_);
  std::printf("{\"type\": \"check\", \"result\": %s}\n", check.json(config.rate_mbps).c_str());
  std::fflush(stdout);
}

std::vector<std::string> ScenarioBed::flush_server_errors() {
  std::vector<std::string> errors = http_->take_errors();
  for (const auto& e : errors) {
    std::printf("{\"type\": \"http_server_error\", \"error\": %s}\n", json_string(e).c_str());
  }
  std::fflush(stdout);
  return errors;
}

std::vector<HttpResult> run_series(ScenarioBed& bed, const std::string& scenario,
                                   const std::string& series, const std::vector<HttpSpec>& calls) {
  std::vector<HttpResult> results;
  run_in(bed.testbed().namespace_name(Side::kClient), [&] {
    HttpClient client(bed.testbed());
    double seconds = 0;
    const std::size_t every = calls.size() > 100 ? calls.size() / 10 : 1;
    for (std::size_t i = 0; i < calls.size(); ++i) {
      HttpResult r = client.get(calls[i]);
      std::printf("%s\n", r.json(calls[i], series, static_cast<int>(i)).c_str());
      seconds += r.total_ms / 1e3;
      if ((i + 1) % every == 0 || i + 1 == calls.size()) {
        std::fprintf(stderr, "wirebench_wire: %s: %s: call %zu of %zu, %.1f s%s\n",
                     scenario.c_str(), series.c_str(), i + 1, calls.size(), seconds,
                     r.ok() ? "" : (", last failed: " + r.error).c_str());
      }
      results.push_back(std::move(r));
    }
    std::fflush(stdout);
  });
  bed.flush_server_errors();
  return results;
}

void print_result(const std::string& scenario, const std::string& series,
                  const std::vector<HttpResult>& results, double published_s,
                  const std::string& published_note) {
  double total_ms = 0, cpu_ms = 0;
  std::uint64_t body = 0, raw = 0;
  int failed = 0;
  for (const auto& r : results) {
    total_ms += r.total_ms;
    cpu_ms += r.server_encode_ms + r.server_compress_ms + r.decompress_ms + r.decode_ms;
    body += r.body_bytes;
    raw += r.raw_bytes;
    if (!r.ok()) ++failed;
  }
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": %s, \"series\": %s, \"calls\": %zu, "
      "\"failed\": %d, \"seconds\": %s, \"cpu_seconds\": %s, \"body_bytes\": %llu, "
      "\"raw_bytes\": %llu, \"published_seconds\": %s, \"published\": %s}\n",
      json_string(scenario).c_str(), json_string(series).c_str(), results.size(), failed,
      fixed(total_ms / 1e3, 3).c_str(), fixed(cpu_ms / 1e3, 3).c_str(),
      static_cast<unsigned long long>(body), static_cast<unsigned long long>(raw),
      fixed(published_s, 1).c_str(), json_string(published_note).c_str());
  std::fflush(stdout);
  std::fprintf(
      stderr, "wirebench_wire: %s: %s: %zu calls in %.2f s (published: %.1f s), %d failed\n",
      scenario.c_str(), series.c_str(), results.size(), total_ms / 1e3, published_s, failed);
}

const std::vector<ScenarioInfo>& scenarios() {
  static const std::vector<ScenarioInfo> all = {
      {"azure",
       "8,100 science rows in 9 pages over relay-2009 (1.548 Mbit/s, 693 ms), Atom vs JSON; "
       "about 70 s of wire time",
       1.548288, 693.1216931216931, run_azure},
      {"wcf", "3,000 calls for 101 airports on lan (1000 Mbit/s, 0.5 ms), SOAP vs WCF JSON", 1000,
       0.5, run_wcf},
      {"faults",
       "a bad query, a request that is not HTTP, a server that dies mid-response and a client "
       "that stops reading, then a good call (20 Mbit/s, 20 ms)",
       20, 20, run_faults},
      {"poc",
       "WCF Data Services PoC: 10 and 100 messages, Atom vs JSON over relay-2009 (1.548 Mbit/s, "
       "693 ms), then 100 concurrent clients; about 3.5 minutes",
       1.548288, 693.1216931216931, run_poc},
      {"sappi",
       "SAP PI middleware hop: content routing, a 401 challenge and delayed-ACK stalls, each "
       "on vs off, client - relay - server over two LAN links (100 Mbit/s, 0.5 ms each); "
       "about 30 s",
       100, 0.5, run_sappi},
      {"sap-gateway",
       "SAP Gateway behind relay-2009 (1.548 Mbit/s, 693 ms): OData v2 Atom vs v2 verbose JSON "
       "vs JSON light, 100 messages and the 8,100 science rows by next links, then 100 "
       "concurrent clients; about 12 minutes",
       1.548288, 693.1216931216931, run_sap_gateway},
      {"grpc-vs-rest",
       "gRPC with protobuf against JSON over HTTP/1.1 and HTTP/2, all over TLS 1.3, gzip and "
       "none, message/100 and science/1000, cold and warm, in 6 rounds on lan, wan and mobile "
       "(the link options give way to theirs); about 4 minutes",
       100, 40, run_grpc_vs_rest},
  };
  return all;
}

std::string field_codec(std::string_view format, wb::Role role) {
  const std::string_view pick = wb::picked(wb::Pick::field, format, role);
  if (!pick.empty()) return std::string(pick);
  if (role == wb::Role::encode) return "reference";
  throw std::runtime_error("no decoder of " + std::string(format) +
                           " picked for the field's scenarios in this build");
}

int run_scenario(const std::string& name, const TestbedConfig& base) {
  if (name == "list") {
    for (const auto& s : scenarios()) {
      std::printf("%-11s %s\n", std::string(s.name).c_str(), std::string(s.summary).c_str());
    }
    return 0;
  }
  for (const auto& s : scenarios()) {
    if (s.name != name) continue;
    TestbedConfig config = base;
    config.rate_mbps = s.rate_mbps;
    config.rtt_ms = s.rtt_ms;
    return s.run(config);
  }
  std::fprintf(stderr, "wirebench_wire: no scenario %s (--scenario list)\n", name.c_str());
  return 2;
}

bool run_http(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls) {
  std::unique_ptr<TestPki> pki;
  std::string certificates = "null";
  if (tls.enabled()) {
    pki = std::make_unique<TestPki>(tls, kTlsHost);
    certificates.clear();
    for (const std::size_t bytes : pki->sent_der_bytes()) {
      certificates += (certificates.empty() ? "[" : ", ") + std::to_string(bytes);
    }
    certificates += "]";
  }
  HttpServer http(testbed, tls, pki.get());
  std::printf(
      "{\"type\": \"http_context\", \"library\": \"cpp-httplib\", \"version\": %s, "
      "\"stack\": %s, \"tls\": %s, \"openssl\": %s, \"certificate_der_bytes\": %s}\n",
      json_string(CPPHTTPLIB_VERSION).c_str(), json_string(tls.stack()).c_str(), tls.json().c_str(),
      json_string(OpenSSL_version(OPENSSL_VERSION)).c_str(), certificates.c_str());
  bool ok = true;
  run_in(testbed.namespace_name(Side::kClient), [&] {
    ok = warm_up(testbed, spec, [&](int i) {
      HttpClient once(testbed, tls, pki.get());  // its connection closes with it
      HttpResult r = once.get(spec);
      return std::pair{r.json(spec, "warmup", i), r.ok()};
    });
    HttpClient client(testbed, tls, pki.get());
    for (int i = 0; i < spec.requests; ++i) {
      HttpResult r = client.get(spec);
      std::printf("%s\n", r.json(spec, "http", i).c_str());
      std::fflush(stdout);
      if (!r.ok()) {
        ok = false;
        std::fprintf(stderr, "wirebench_wire: request %d: %s\n", i, r.error.c_str());
      }
    }
  });
  for (const auto& e : http.take_errors()) {
    std::printf("{\"type\": \"http_server_error\", \"error\": %s}\n", json_string(e).c_str());
  }
  std::fflush(stdout);
  return ok;
}

}  // namespace wire
