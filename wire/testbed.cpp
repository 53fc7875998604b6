#include "wire/testbed.hpp"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "wire/tun.hpp"

namespace wire {
namespace {

// The settings that shape a transfer, recorded from each side.
const char* const kRecordedSysctls[] = {
    "net.ipv4.tcp_congestion_control",
    "net.ipv4.tcp_slow_start_after_idle",
    "net.ipv4.tcp_timestamps",
    "net.ipv4.tcp_no_metrics_save",
    "net.ipv4.tcp_sack",
    "net.ipv4.tcp_window_scaling",
    "net.ipv4.tcp_wmem",
    "net.ipv4.tcp_rmem",
};

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::size_t TestbedConfig::default_queue_bytes() const {
  double bdp = rate_mbps * 1e6 / 8 * rtt_ms / 1e3;
  return std::max<std::size_t>(static_cast<std::size_t>(4 * bdp), 100 * kMtu);
}

Testbed::Testbed(TestbedConfig config) : config_(std::move(config)) {
  if (!(config_.rate_mbps > 0)) throw std::invalid_argument("--rate-mbps must be > 0");
  if (!(config_.rtt_ms >= 0)) throw std::invalid_argument("--rtt-ms must be >= 0");
  link_.rate_bps = config_.rate_mbps * 1e6;
  link_.one_way_delay_ns = std::llround(config_.rtt_ms * 1e6 / 2);
  link_.queue_bytes = config_.queue_bytes ? config_.queue_bytes : config_.default_queue_bytes();
  if (link_.queue_bytes < static_cast<std::size_t>(kMtu)) {
    throw std::invalid_argument("--queue-bytes must hold one packet (>= 1500)");
  }
  removed_stale_ = remove_stale_namespaces();
  client_ns_ = std::make_unique<Namespace>("client");
  server_ns_ = std::make_unique<Namespace>("server");

  struct End {
    const Namespace& ns;
    const char* self;
    const char* peer;
    std::map<std::string, std::string>& recorded;
    std::string& route;
  };
  End ends[2] = {{*client_ns_, kClientAddress, kServerAddress, client_sysctls_, client_route_},
                 {*server_ns_, kServerAddress, kClientAddress, server_sysctls_, server_route_}};
  Fd tuns[2];
  bool use_congctl = false;
  for (int i = 0; i < 2; ++i) {
    const std::string& ns = ends[i].ns.name();
    // IPv6 off before the TUN exists, so no router solicitation or MLD packet
    // ever crosses the link; then the TCP settings of this end.
    int congestion_errno = 0;
    run_in(ns, [&] {
      write_sysctl("net.ipv6.conf.all.disable_ipv6", "1");
      write_sysctl("net.ipv6.conf.default.disable_ipv6", "1");
      // Each cold connection starts from the initial window, as the model
      // does, rather than from a cached ssthresh of the previous connection.
      if (int e = write_sysctl("net.ipv4.tcp_no_metrics_save", "1")) {
        throw std::runtime_error("sysctl tcp_no_metrics_save: " + std::string(strerror(e)));
      }
      for (const auto& [key, value] : config_.sysctls) {
        if (key.rfind("net.", 0) != 0 || key.find("..") != std::string::npos) {
          throw std::invalid_argument("only net.* sysctls can be set: " + key);
        }
        if (int e = write_sysctl(key, value)) {
          throw std::runtime_error("sysctl " + key + "=" + value + ": " + strerror(e));
        }
      }
      congestion_errno = write_sysctl("net.ipv4.tcp_congestion_control", config_.congestion);
      tuns[i] = open_tun(kTunName);
    });
    if (congestion_errno == EPERM) {
      use_congctl = true;
    } else if (congestion_errno != 0) {
      throw std::runtime_error(
          "congestion control '" + config_.congestion +
          "' is not available: " + std::strerror(congestion_errno) +
          " (this kernel has: " + read_sysctl("net.ipv4.tcp_available_congestion_control") + ")");
    }
    run_ip({"-n", ns, "link", "set", "lo", "up"});
    run_ip({"-n", ns, "link", "set", kTunName, "mtu", std::to_string(kMtu), "up"});
    run_ip({"-n", ns, "addr", "add", std::string(ends[i].self) + "/32", "dev", kTunName});
  }
  congestion_set_by_ = use_congctl ? "route congctl" : "sysctl";
  for (auto& end : ends) {
    const std::string& ns = end.ns.name();
    std::vector<std::string> route = {
        "-n", ns, "route", "add", std::string(end.peer) + "/32", "dev", kTunName, "src", end.self};
    if (config_.initcwnd > 0) {
      route.insert(route.end(), {"initcwnd", std::to_string(config_.initcwnd)});
    }
    if (use_congctl) route.insert(route.end(), {"congctl", config_.congestion});
    run_ip(route);
    end.route = trim(run_ip({"-n", ns, "route", "show", std::string(end.peer) + "/32"}));
    run_in(ns, [&] {
      for (const char* key : kRecordedSysctls) end.recorded[key] = read_sysctl(key);
    });
  }
  forwarder_ = std::make_unique<Forwarder>(link_, std::move(tuns[0]), std::move(tuns[1]));
}

Testbed::~Testbed() {
  forwarder_.reset();
  server_ns_.reset();
  client_ns_.reset();
}

const std::string& Testbed::namespace_name(Side side) const {
  return side == Side::kClient ? client_ns_->name() : server_ns_->name();
}

const std::map<std::string, std::string>& Testbed::sysctls(Side side) const {
  return side == Side::kClient ? client_sysctls_ : server_sysctls_;
}

Fd Testbed::tcp_socket(Side side) const {
  return run_in(namespace_name(side), [] {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    return fd;
  });
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Testbed::context_json() const {
  std::ostringstream o;
  auto sysctl_object = [&](const std::map<std::string, std::string>& m) {
    o << "{";
    bool first = true;
    for (const auto& [k, v] : m) {
      o << (first ? "" : ", ") << json_string(k) << ": " << json_string(v);
      first = false;
    }
    o << "}";
  };
  o << "{\"rate_mbps\": " << config_.rate_mbps << ", \"rtt_ms\": " << config_.rtt_ms
    << ", \"queue_bytes\": " << link_.queue_bytes << ", \"mtu\": " << kMtu
    << ", \"client\": " << json_string(kClientAddress)
    << ", \"server\": " << json_string(kServerAddress)
    << ", \"congestion_control\": " << json_string(config_.congestion)
    << ", \"congestion_set_by\": " << json_string(congestion_set_by_) << ", \"initcwnd\": ";
  if (config_.initcwnd > 0) {
    o << config_.initcwnd;
  } else {
    o << "\"kernel default (10)\"";
  }
  o << ", \"client_route\": " << json_string(client_route_)
    << ", \"server_route\": " << json_string(server_route_) << ", \"client_sysctls\": ";
  sysctl_object(client_sysctls_);
  o << ", \"server_sysctls\": ";
  sysctl_object(server_sysctls_);
  o << ", \"forwarder_scheduling\": " << json_string(forwarder_->scheduling()) << "}";
  return o.str();
}

}  // namespace wire
