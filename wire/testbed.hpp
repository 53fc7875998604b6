#pragma once

// The emulated link as a whole: two network namespaces (client, server), a TUN
// device in each, point-to-point addresses from 198.18.0.0/15 (RFC 2544's
// benchmarking range) with no default route, the TCP settings of both ends,
// and the forwarder between the TUNs. Every address lives only in the
// namespaces made here, so no packet can leave them.
//
// With a middle namespace (TestbedConfig::middle) there are two links in
// series, client - middle - server, each with the configured rate and RTT
// and a forwarder of its own. The middle forwards IP between its two TUNs, so
// the client still reaches the server (the self-check and raw transfers then
// cross both links), and a relay in the middle listens on kMiddleAddress.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "wire/fd.hpp"
#include "wire/link.hpp"
#include "wire/netns.hpp"

namespace wire {

inline constexpr char kClientAddress[] = "198.18.0.1";
inline constexpr char kServerAddress[] = "198.18.0.2";
// The middle's addresses: towards the client (where a relay listens) and
// towards the server (the source of the relay's own connections).
inline constexpr char kMiddleAddress[] = "198.18.0.3";
inline constexpr char kMiddleServerSideAddress[] = "198.18.0.4";
inline constexpr char kTunName[] = "wb0";
inline constexpr char kMiddleServerSideTunName[] = "wb1";
inline constexpr int kMtu = 1500;
// The forwarder runs with real-time priority on links of at least this RTT.
inline constexpr double kRealtimeFromRttMs = 10;

struct TestbedConfig {
  double rate_mbps = 100;            // 10^6 bit/s of whole IP packets
  double rtt_ms = 40;                // twice the one-way delay
  std::size_t queue_bytes = 0;       // per direction; 0: default_queue_bytes()
  std::string congestion = "cubic";  // net.ipv4.tcp_congestion_control of both ends
  int initcwnd = 0;                  // route initcwnd; 0: the kernel's default (10)
  // Extra net.* sysctls for both namespaces, e.g. {"net.ipv4.tcp_slow_start_after_idle", "0"}.
  std::map<std::string, std::string> sysctls;
  // A middle namespace between client and server, with a link on each side.
  bool middle = false;

  // Four bandwidth-delay products, at least 100 full packets: TCP's slow
  // start then fills the link without loss, so the bulk check measures the
  // link rather than the sender's loss recovery (at two, a 5 Mbit/s / 120 ms
  // link still drops in slow start and the check misses by 4 %).
  std::size_t default_queue_bytes() const;
};

enum class Side { kClient, kServer, kMiddle };

class Testbed {
 public:
  // Sweeps stale namespaces, then builds everything; throws std::runtime_error
  // (after tearing down what was built) when a step fails.
  explicit Testbed(TestbedConfig config);
  ~Testbed();
  Testbed(const Testbed&) = delete;
  Testbed& operator=(const Testbed&) = delete;

  const TestbedConfig& config() const { return config_; }
  std::size_t queue_bytes() const { return link_.queue_bytes; }
  // Side::kMiddle only with a middle namespace.
  const std::string& namespace_name(Side side) const;
  // The link at the client: to the server, or to the middle when there is one.
  Forwarder& forwarder() const { return *forwarder_; }
  // Every link from the client to the server: one, or two with a middle.
  std::vector<Forwarder*> links() const;
  // Packets dropped by the queues of every link, both directions.
  std::uint64_t link_drops() const;
  // Turns the routes' quickack attribute on or off in every namespace: the
  // receiver then ACKs every segment at once instead of delaying its ACKs
  // (the per-route form of TCP_QUICKACK). Applies to connections made after.
  void set_quickack(bool on);

  // A new TCP socket (non-blocking, close-on-exec) in that side's namespace.
  Fd tcp_socket(Side side) const;

  // How the congestion control was set: "sysctl", or "route congctl" when the
  // kernel restricts the algorithm to the root namespace (it is not in the
  // host's net.ipv4.tcp_allowed_congestion_control).
  const std::string& congestion_set_by() const { return congestion_set_by_; }
  // The TCP sysctls of one side as read back after setup.
  const std::map<std::string, std::string>& sysctls(Side side) const;
  // The route to the peer as `ip route` shows it in the client namespace.
  const std::string& client_route() const { return client_route_; }
  const std::string& server_route() const { return server_route_; }
  // The middle's routes (`ip route` in it), one line each; empty without one.
  const std::string& middle_routes() const { return middle_routes_; }

  // Stale namespaces the constructor removed.
  const std::vector<std::string>& removed_stale() const { return removed_stale_; }

  // One JSON object: link settings, congestion control, initial window,
  // sysctls of both sides, forwarder scheduling.
  std::string context_json() const;

 private:
  TestbedConfig config_;
  LinkConfig link_;
  std::vector<std::string> removed_stale_;
  std::unique_ptr<Namespace> client_ns_, server_ns_, middle_ns_;
  std::string congestion_set_by_;
  std::map<std::string, std::string> client_sysctls_, server_sysctls_, middle_sysctls_;
  std::string client_route_, server_route_, middle_routes_;
  // `ip route add` arguments of every route made (set_quickack replaces them).
  std::vector<std::vector<std::string>> routes_;
  bool quickack_ = false;
  // Declared last so they are destroyed first: the TUNs go before the
  // namespaces. middle_forwarder_ is the middle-server link.
  std::unique_ptr<Forwarder> forwarder_, middle_forwarder_;
};

// JSON string literal of s.
std::string json_string(const std::string& s);
// v with digits decimals: the numbers of the JSON lines the wire prints.
std::string fixed(double v, int digits = 3);

}  // namespace wire
