#pragma once

// Named HTTP scenarios over the emulated link (wirebench_wire --scenario
// NAME): each builds its own testbed with the link of the experiment it
// replays (keeping the TCP settings of the command line), runs the self-check,
// replays the calls through HttpServer and HttpClient and prints JSON lines:
// "context", "check", one "http_request" per call and a "scenario_result" per
// series with the published figure beside the measured one. Each stops by
// itself and prints progress on stderr.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/registry.hpp"
#include "wire/http_client.hpp"
#include "wire/http_server.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"
#include "wire/transfer.hpp"

namespace wire {

// A testbed with both servers (the raw one for the self-check, the HTTP
// service) after a passed self-check; prints the context and check lines.
class ScenarioBed {
 public:
  // Throws std::runtime_error when the self-check fails three times. The
  // HTTP service runs over TLS when tls is enabled, with pki's chain.
  ScenarioBed(const std::string& scenario, const TestbedConfig& config, const TlsConfig& tls = {},
              const TestPki* pki = nullptr);
  Testbed& testbed() { return *testbed_; }
  HttpServer& http() { return *http_; }
  // Prints the server's errors as "http_server_error" lines; returns them.
  std::vector<std::string> flush_server_errors();

 private:
  std::unique_ptr<Testbed> testbed_;
  std::unique_ptr<Server> raw_;
  std::unique_ptr<HttpServer> http_;
};

// One series of calls on one kept-alive connection, made from the client
// namespace: returns the results in order and prints each line.
std::vector<HttpResult> run_series(ScenarioBed& bed, const std::string& scenario,
                                   const std::string& series, const std::vector<HttpSpec>& calls);

// {"type": "scenario_result", ...} for a series: wall seconds of the calls
// (sum of total_ms), bytes, failures, and the published figure.
void print_result(const std::string& scenario, const std::string& series,
                  const std::vector<HttpResult>& results, double published_s,
                  const std::string& published_note);

struct ScenarioInfo {
  std::string_view name;
  std::string_view summary;  // one line for --scenario list and --help
  double rate_mbps, rtt_ms;  // the link
  // Runs on base's TCP settings with the link above; returns the exit status.
  std::function<int(const TestbedConfig&)> run;
};

const std::vector<ScenarioInfo>& scenarios();
// Runs one by name ("list" prints them); returns the exit status.
int run_scenario(const std::string& name, const TestbedConfig& base);

// The --http run on a built testbed: spec.requests calls on one kept-alive
// connection (or each on its own, spec.reconnect), over TLS when tls is
// enabled, with a test CA made for the run in memory; returns false when
// one of them failed.
bool run_http(const Testbed& testbed, const HttpSpec& spec, const TlsConfig& tls = {});

// The library token of the codec the field's experiments are replayed with in
// format and role: the registry's field pick (codecs/registry.def), else
// "reference" for an encoder. Throws std::runtime_error when a decoder has
// none, as in a build without the picked library.
std::string field_codec(std::string_view format, wb::Role role);

// The scenarios, one file each.
int run_azure(const TestbedConfig& config);
int run_wcf(const TestbedConfig& config);
int run_faults(const TestbedConfig& config);
int run_poc(const TestbedConfig& config);
int run_sappi(const TestbedConfig& config);
int run_sap_gateway(const TestbedConfig& config);
int run_grpc_vs_rest(const TestbedConfig& config);

}  // namespace wire
