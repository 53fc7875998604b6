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
  // Below 10 ms of RTT the forwarder polls for most of each round trip; with
  // real-time priority a loaded sub-millisecond link stalled it for 40-50 ms
  // at a time (the kernel logged RT throttling) and missed its rate by 3 % and
  // more, without it the rate held (docs/wire.md, "Sub-millisecond links").
  link_.realtime = config_.rtt_ms >= kRealtimeFromRttMs;
  if (link_.queue_bytes < static_cast<std::size_t>(kMtu)) {
    throw std::invalid_argument("--queue-bytes must hold one packet (>= 1500)");
  }
  removed_stale_ = remove_stale_namespaces();
  client_ns_ = std::make_unique<Namespace>("client");
  if (config_.middle) middle_ns_ = std::make_unique<Namespace>("middle");
  server_ns_ = std::make_unique<Namespace>("server");

  // Every namespace gets the TCP settings: the middle's relay is a TCP
  // endpoint of both links. Returns the TUN devices named.
  bool use_congctl = false;
  auto prepare = [&](const std::string& ns, std::vector<const char*> tun_names) {
    std::vector<Fd> tuns;
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
      for (const char* name : tun_names) tuns.push_back(open_tun(name));
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
    for (const char* name : tun_names) {
      run_ip({"-n", ns, "link", "set", name, "mtu", std::to_string(kMtu), "up"});
    }
    return tuns;
  };
  auto add_address = [](const std::string& ns, const char* tun, const char* address) {
    run_ip({"-n", ns, "addr", "add", std::string(address) + "/32", "dev", tun});
  };
  Fd client_tun = std::move(prepare(client_ns_->name(), {kTunName})[0]);
  Fd server_tun = std::move(prepare(server_ns_->name(), {kTunName})[0]);
  add_address(client_ns_->name(), kTunName, kClientAddress);
  add_address(server_ns_->name(), kTunName, kServerAddress);
  std::vector<Fd> middle_tuns;
  if (middle_ns_) {
    const std::string& ns = middle_ns_->name();
    middle_tuns = prepare(ns, {kTunName, kMiddleServerSideTunName});
    add_address(ns, kTunName, kMiddleAddress);
    add_address(ns, kMiddleServerSideTunName, kMiddleServerSideAddress);
    // Only between its own two TUNs: the middle has no other device or route.
    run_in(ns, [] {
      if (int e = write_sysctl("net.ipv4.ip_forward", "1")) {
        throw std::runtime_error(std::string("sysctl ip_forward: ") + strerror(e));
      }
    });
  }
  congestion_set_by_ = use_congctl ? "route congctl" : "sysctl";

  auto add_route = [&](const std::string& ns, const char* peer, const char* tun, const char* self) {
    std::vector<std::string> route = {"-n",  ns,  "route", "add", std::string(peer) + "/32",
                                      "dev", tun, "src",   self};
    if (config_.initcwnd > 0) {
      route.insert(route.end(), {"initcwnd", std::to_string(config_.initcwnd)});
    }
    if (use_congctl) route.insert(route.end(), {"congctl", config_.congestion});
    run_ip(route);
    routes_.push_back(std::move(route));
  };
  auto record = [&](const std::string& ns, std::map<std::string, std::string>& recorded) {
    run_in(ns, [&] {
      for (const char* key : kRecordedSysctls) recorded[key] = read_sysctl(key);
    });
  };
  const std::string& client = client_ns_->name();
  const std::string& server = server_ns_->name();
  add_route(client, kServerAddress, kTunName, kClientAddress);
  add_route(server, kClientAddress, kTunName, kServerAddress);
  if (middle_ns_) {
    const std::string& middle = middle_ns_->name();
    add_route(client, kMiddleAddress, kTunName, kClientAddress);
    add_route(server, kMiddleServerSideAddress, kTunName, kServerAddress);
    add_route(middle, kClientAddress, kTunName, kMiddleAddress);
    add_route(middle, kServerAddress, kMiddleServerSideTunName, kMiddleServerSideAddress);
    middle_routes_ = trim(run_ip({"-n", middle, "route", "show"}));
    record(middle, middle_sysctls_);
  }
  client_route_ =
      trim(run_ip({"-n", client, "route", "show", std::string(kServerAddress) + "/32"}));
  server_route_ =
      trim(run_ip({"-n", server, "route", "show", std::string(kClientAddress) + "/32"}));
  record(client, client_sysctls_);
  record(server, server_sysctls_);
  if (middle_ns_) {
    forwarder_ =
        std::make_unique<Forwarder>(link_, std::move(client_tun), std::move(middle_tuns[0]));
    middle_forwarder_ =
        std::make_unique<Forwarder>(link_, std::move(middle_tuns[1]), std::move(server_tun));
  } else {
    forwarder_ = std::make_unique<Forwarder>(link_, std::move(client_tun), std::move(server_tun));
  }
}

Testbed::~Testbed() {
  middle_forwarder_.reset();
  forwarder_.reset();
  server_ns_.reset();
  middle_ns_.reset();
  client_ns_.reset();
}

std::vector<Forwarder*> Testbed::links() const {
  std::vector<Forwarder*> all = {forwarder_.get()};
  if (middle_forwarder_) all.push_back(middle_forwarder_.get());
  return all;
}

std::uint64_t Testbed::link_drops() const {
  std::uint64_t n = 0;
  for (const Forwarder* f : links()) {
    n += f->stats(Direction::kClientToServer).packets_dropped +
         f->stats(Direction::kServerToClient).packets_dropped;
  }
  return n;
}

void Testbed::set_quickack(bool on) {
  if (on == quickack_) return;
  for (const auto& add : routes_) {
    std::vector<std::string> change = add;
    change[3] = "change";
    if (on) change.insert(change.end(), {"quickack", "1"});
    run_ip(change);
  }
  quickack_ = on;
}

const std::string& Testbed::namespace_name(Side side) const {
  if (side == Side::kMiddle) {
    if (!middle_ns_) throw std::logic_error("this testbed has no middle namespace");
    return middle_ns_->name();
  }
  return side == Side::kClient ? client_ns_->name() : server_ns_->name();
}

const std::map<std::string, std::string>& Testbed::sysctls(Side side) const {
  if (side == Side::kMiddle) return middle_sysctls_;
  return side == Side::kClient ? client_sysctls_ : server_sysctls_;
}

Fd Testbed::tcp_socket(Side side) const {
  return run_in(namespace_name(side), [] {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    return fd;
  });
}

std::string fixed(double v, int digits) {
  const int n = std::snprintf(nullptr, 0, "%.*f", digits, v);
  std::string out(static_cast<std::size_t>(n), '\0');
  std::snprintf(out.data(), out.size() + 1, "%.*f", digits, v);
  return out;
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
  if (middle_ns_) {
    o << ", \"middle\": {\"client_side\": " << json_string(kMiddleAddress)
      << ", \"server_side\": " << json_string(kMiddleServerSideAddress)
      << ", \"links\": \"client - middle and middle - server, each at the rate and RTT above\""
      << ", \"routes\": " << json_string(middle_routes_)
      << ", \"quickack\": " << (quickack_ ? "true" : "false") << ", \"sysctls\": ";
    sysctl_object(middle_sysctls_);
    o << ", \"forwarder_scheduling\": " << json_string(middle_forwarder_->scheduling()) << "}";
  }
  o << ", \"forwarder_scheduling\": " << json_string(forwarder_->scheduling()) << "}";
  return o.str();
}

}  // namespace wire
