// wirebench_wire: the measured wire. Builds an emulated link between two
// network namespaces (see testbed.hpp), checks that it shows the configured
// RTT and rate, then times real kernel TCP transfers over it and prints one
// JSON line per request for comparison with tools/wbtools/transfer/tcp.py's model.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "wire/grpc_call.hpp"
#include "wire/h2_client.hpp"
#include "wire/h2_config.hpp"
#include "wire/http_spec.hpp"
#include "wire/netns.hpp"
#include "wire/progress.hpp"
#include "wire/scenario.hpp"
#include "wire/self_check.hpp"
#include "wire/testbed.hpp"
#include "wire/tls_config.hpp"
#include "wire/transfer.hpp"
#include "wire/usage.hpp"

namespace {

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "wirebench wire: error: %s (./wirebench wire --help lists the options)\n",
               message.c_str());
  std::exit(2);
}

double parse_number(const std::string& option, const char* text) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0)) usage_error(option + " needs a number >= 0");
  return v;
}

std::uint64_t parse_count(const std::string& option, const char* text) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-') usage_error(option + " needs an integer");
  return v;
}

// SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken here, so
// teardown runs in a normal thread (it execs ip) and not in a handler.
void start_signal_thread() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    std::fprintf(stderr, "\nwirebench_wire: %s: removing the namespaces\n", strsignal(sig));
    wire::remove_owned_namespaces();
    _exit(128 + sig);
  }).detach();
}

std::string request_json(const char* series, int index, const wire::RequestTiming& t) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"type\": \"request\", \"series\": \"%s\", \"index\": %d, \"connection\": "
                "\"%s\", \"bytes\": %llu, \"connect_ms\": %s, \"first_byte_ms\": %.3f, "
                "\"last_byte_ms\": %.3f, \"link_drops\": %llu}",
                series, index, t.cold ? "cold" : "warm", static_cast<unsigned long long>(t.bytes),
                t.cold ? std::to_string(t.connect_ms).c_str() : "null", t.first_byte_ms,
                t.last_byte_ms, static_cast<unsigned long long>(t.link_drops));
  return buf;
}

void pause_ns(std::int64_t ns) {
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

}  // namespace

int main(int argc, char** argv) {
  wire::TestbedConfig config;
  bool check = false;
  std::optional<wire::HttpSpec> http;
  wire::TlsConfig tls;
  bool tls_options = false;  // any --tls* option given
  wire::H2Config h2;
  bool h2_options = false;  // any --h2* option given
  wire::GrpcConfig grpc;
  bool grpc_options = false, tls_cipher = false;  // any --grpc* option; --tls-cipher
  std::string scenario;
  std::vector<std::uint64_t> transfers;
  std::uint64_t cold = 1, warm = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(wire::kUsage, stdout);
      return 0;
    } else if (arg == "--rate-mbps") {
      config.rate_mbps = parse_number(arg, value());
      if (config.rate_mbps <= 0) usage_error("--rate-mbps must be > 0");
    } else if (arg == "--rtt-ms") {
      config.rtt_ms = parse_number(arg, value());
    } else if (arg == "--queue-bytes") {
      config.queue_bytes = parse_count(arg, value());
      if (config.queue_bytes < wire::kMtu) usage_error("--queue-bytes must be >= 1500");
    } else if (arg == "--congestion") {
      config.congestion = value();
      if (config.congestion != "cubic" && config.congestion != "reno" &&
          config.congestion != "bbr") {
        usage_error("--congestion is cubic, reno or bbr");
      }
    } else if (arg == "--initcwnd") {
      config.initcwnd = static_cast<int>(parse_count(arg, value()));
    } else if (arg == "--sysctl") {
      std::string kv = value();
      auto eq = kv.find('=');
      if (eq == std::string::npos || kv.rfind("net.", 0) != 0) {
        usage_error("--sysctl takes net.KEY=VALUE");
      }
      config.sysctls[kv.substr(0, eq)] = kv.substr(eq + 1);
    } else if (arg == "--http") {
      const char* spec = value();
      try {
        http = wire::parse_http_spec(spec);
      } catch (const std::invalid_argument& e) {
        usage_error(std::string("--http: ") + e.what());
      }
    } else if (arg.rfind("--tls", 0) == 0) {
      tls_options = true;
      tls_cipher = tls_cipher || arg == "--tls-cipher";
      if (arg == "--tls-resume") {
        tls.resume = true;
      } else if (arg == "--tls-early-data") {
        tls.early_data = tls.resume = true;
      } else {
        const char* v = value();
        try {
          wire::set_tls_option(tls, arg, v);
        } catch (const std::invalid_argument& e) {
          usage_error(e.what());
        }
      }
    } else if (arg.rfind("--h2", 0) == 0) {
      h2_options = true;
      const char* v = arg == "--h2" ? "" : value();
      try {
        wire::set_h2_option(h2, arg, v);
      } catch (const std::invalid_argument& e) {
        usage_error(e.what());
      }
    } else if (arg.rfind("--grpc", 0) == 0) {
      grpc_options = true;
      const char* v = arg == "--grpc" ? "" : value();
      try {
        wire::set_grpc_option(grpc, arg, v);
      } catch (const std::invalid_argument& e) {
        usage_error(e.what());
      }
    } else if (arg == "--scenario") {
      scenario = value();
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "--transfer") {
      std::string list = value();
      for (std::size_t from = 0; from <= list.size();) {
        std::size_t comma = std::min(list.find(',', from), list.size());
        std::string item = list.substr(from, comma - from);
        transfers.push_back(parse_count(arg, item.c_str()));
        if (transfers.back() == 0) usage_error("--transfer needs at least 1 byte");
        from = comma + 1;
      }
    } else if (arg == "--cold") {
      cold = parse_count(arg, value());
    } else if (arg == "--warm") {
      warm = parse_count(arg, value());
    } else {
      usage_error("unknown option " + arg);
    }
  }
  if (scenario == "list") return wire::run_scenario(scenario, config);
  if (tls_options && !http) usage_error("the --tls options go with --http SPEC");
  if (tls_options && !tls.enabled()) usage_error("the --tls-* options need --tls 1.3 or 1.2");
  if (tls.early_data) {
    if (tls.version != "1.3") usage_error("--tls-early-data needs --tls 1.3: TLS 1.2 has no 0-RTT");
    if (h2.enabled || grpc.enabled)
      usage_error("--tls-early-data goes with HTTP/1.1 only, not --h2 or --grpc");
  }
  if (h2_options && (!http || !h2.enabled))
    usage_error("the --h2-* options go with --http SPEC --h2");
  if (grpc_options) {
    if (!http || !grpc.enabled) usage_error("the --grpc-* options go with --http SPEC --grpc");
    if (h2.enabled) usage_error("--grpc and --h2 are two stacks: give one");
    try {
      wire::check_grpc_tls(tls, tls_cipher);
      wire::check_grpc_spec(*http);
    } catch (const std::invalid_argument& e) {
      usage_error(e.what());
    }
  }
  // Resumption happens on a new connection: each request opens one.
  if (tls.resume) http->reconnect = true;
  if (!check && transfers.empty() && !http && scenario.empty()) {
    usage_error("nothing to do: give --check, --transfer BYTES, --http SPEC or --scenario NAME");
  }
  if (std::string why = wire::missing_privileges(); !why.empty()) {
    std::fprintf(stderr, "wirebench_wire: %s\n", why.c_str());
    return 2;
  }

  start_signal_thread();
  try {
    if (!scenario.empty()) return wire::run_scenario(scenario, config);
    wire::Testbed testbed(config);
    for (const auto& name : testbed.removed_stale()) {
      std::fprintf(stderr, "wirebench_wire: removed stale namespace %s\n", name.c_str());
    }
    wire::Server server(testbed);
    if (check) std::fprintf(stderr, "wirebench_wire: self-check (about 3 s)\n");
    wire::CheckResult result = wire::run_self_check(testbed, true);
    if (!result.ok) {
      std::fprintf(stderr, "wirebench_wire: self-check failed, nothing reported:\n  %s\n  %s\n",
                   result.failure.c_str(), result.json(config.rate_mbps).c_str());
      return 1;
    }
    std::printf("{\"type\": \"context\", \"link\": %s, \"server_congestion_in_use\": %s}\n",
                testbed.context_json().c_str(),
                wire::json_string(server.congestion_in_use()).c_str());
    std::printf("{\"type\": \"check\", \"result\": %s}\n", result.json(config.rate_mbps).c_str());
    std::fflush(stdout);
    if (check) {
      std::fprintf(stderr,
                   "wirebench_wire: self-check passed: RTT %.3f ms (expected %.3f, %+.2f %%), "
                   "rate %.3f Mbit/s of IP packets = goodput %.3f x 1500/%d (forwarder count "
                   "%.3f; configured %.3f, %+.2f %%)\n",
                   result.rtt_median_ms, result.rtt_expected_ms, 100 * result.rtt_error(),
                   result.ip_rate_mbps, result.goodput_mbps, result.payload_per_packet,
                   result.link_rate_mbps, config.rate_mbps,
                   100 * result.rate_error(config.rate_mbps));
    }
    for (const std::uint64_t bytes : transfers) {
      wire::Client client(testbed);
      // Between cold requests the previous connection's FIN exchange clears
      // the link first.
      const auto gap = static_cast<std::int64_t>(2 * config.rtt_ms * 1e6) + 1'000'000;
      for (std::uint64_t i = 0; i < cold; ++i) {
        wire::Progress progress("cold request " + std::to_string(i), bytes, true);
        wire::RequestTiming t = client.cold_request(
            bytes, [&](std::uint64_t got, std::int64_t now) { progress.update(got, now); });
        std::printf("%s\n", request_json("cold", static_cast<int>(i), t).c_str());
        std::fflush(stdout);
        pause_ns(gap);
      }
      if (warm > 0) {
        wire::RequestTiming opening;
        opening.bytes = bytes;
        std::int64_t start = 0;
        wire::Fd conn = client.connect_response(opening, start);
        for (std::uint64_t i = 0; i <= warm; ++i) {
          wire::RequestTiming t;
          if (i == 0) {
            t = opening;
          } else {
            t.bytes = bytes;
            start = wire::monotonic_ns();
          }
          wire::Progress progress("warm request " + std::to_string(i), bytes, true);
          client.request(conn, t, start,
                         [&](std::uint64_t got, std::int64_t now) { progress.update(got, now); });
          std::printf("%s\n", request_json("warm", static_cast<int>(i), t).c_str());
          std::fflush(stdout);
        }
      }
      if (warm > 0) pause_ns(gap);  // the closed warm connection's FINs, before the next size
    }
    const bool http_ok = !http || (grpc.enabled ? wire::run_grpc(testbed, *http, tls, grpc)
                                   : h2.enabled ? wire::run_h2(testbed, *http, tls, h2)
                                                : wire::run_http(testbed, *http, tls));
    if (std::string e = testbed.forwarder().error(); !e.empty()) {
      throw std::runtime_error("the forwarder stopped: " + e);
    }
    if (std::string e = server.error(); !e.empty()) {
      throw std::runtime_error("the server stopped: " + e);
    }
    if (!http_ok) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wirebench_wire: %s\n", e.what());
    return 1;
  }
  return 0;
}
