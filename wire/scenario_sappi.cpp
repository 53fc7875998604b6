// SAP PI, as published: a middleware hop between a sender and a receiver on a
// LAN, and three settings that each cost a call time there: content-based
// routing (about 300 ms), a 401 challenge because the sender has no HTTP
// pre-authentication (about 120 ms: a round trip) and delayed-ACK stalls with
// Nagle on (150-200 ms on its Windows stacks). Here the sender (client
// namespace) posts a SOAP request to the Relay (middle namespace), which
// routes it and forwards it to the SoapReceiver (server namespace), over two
// emulated links. Each knob is measured slow and fast with the other two in
// their fast setting, on a kept-alive connection after one warm-up call; the
// saving is the difference of the per-call medians.

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "codecs/registry.hpp"
#include "wire/netns.hpp"
#include "wire/relay.hpp"
#include "wire/scenario.hpp"
#include "wire/soap_receiver.hpp"

namespace wire {
namespace {

// The sender's settings and the relay's, for one series.
struct Knobs {
  std::string router;     // empty: the relay routes by the URL
  bool preauth = true;    // credentials with the first request
  bool nodelay = true;    // TCP_NODELAY on every connection of the call
  bool quickack = false;  // routes with quickack: no delayed ACKs
  std::string text() const {
    return (router.empty() ? "URL routing" : "content routing (" + router + ")") +
           std::string(preauth ? ", pre-authenticated" : ", 401 challenge") +
           (nodelay ? ", TCP_NODELAY" : ", Nagle on") + (quickack ? ", quickack routes" : "");
  }
};

// The SOAP request of a series: the reference writer's envelope of a dataset,
// and the rule a content router applies to it (its first key, so receiver a).
struct SoapRequest {
  std::string name;
  std::string body;
  wb::RouteRule rule;
};

SoapRequest soap_request(const std::string& dataset, int rows) {
  HttpSpec spec;
  spec.dataset = dataset;
  spec.rows = rows;
  spec.format = "soap";
  validate(spec);
  const wb::Records records = page_records(spec);
  SoapRequest r{dataset + "/" + std::to_string(rows), {}, *wb::first_key_rule(records)};
  wb::find_codec("soap", wb::Role::encode, "reference")->make_encoder()->encode(records, r.body);
  return r;
}

struct Call {
  int status = 0, attempts = 1;
  double total_ms = 0, challenge_ms = 0, route_ms = 0, upstream_ms = 0;
  std::uint64_t link_drops = 0;
  std::string receiver, error;
  bool ok() const { return error.empty(); }
};

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

double header_ms(const httplib::Response& res, const char* key) {
  const std::string v = res.get_header_value(key);
  return v.empty() ? 0 : std::strtod(v.c_str(), nullptr);
}

Call one_call(httplib::Client& sender, const Testbed& testbed, const SoapRequest& request,
              const Knobs& knobs) {
  Call c;
  const std::uint64_t drops_before = testbed.link_drops();
  const std::string path = knobs.router.empty() ? "/deliver/a" : "/deliver";
  httplib::Headers headers = {{"SOAPAction", "\"urn:wirebench:sappi/Deliver\""}};
  if (knobs.preauth) headers.emplace("Authorization", kAuthorization);
  const char* type = "text/xml; charset=utf-8";
  const std::int64_t t0 = monotonic_ns();
  httplib::Result res = sender.Post(path.c_str(), headers, request.body, type);
  if (res && res->status == 401 && !knobs.preauth) {
    // No pre-authentication: the whole request goes again with credentials.
    c.challenge_ms = static_cast<double>(monotonic_ns() - t0) / 1e6;
    c.attempts = 2;
    headers.emplace("Authorization", kAuthorization);
    res = sender.Post(path.c_str(), headers, request.body, type);
  }
  c.total_ms = static_cast<double>(monotonic_ns() - t0) / 1e6;
  c.link_drops = testbed.link_drops() - drops_before;
  if (!res) {
    c.error = "HTTP exchange failed (" + httplib::to_string(res.error()) + ")";
    return c;
  }
  c.status = res->status;
  c.receiver = res->get_header_value("X-Wb-Receiver");
  c.route_ms = header_ms(*res, "X-Wb-Route-Ms");
  c.upstream_ms = header_ms(*res, "X-Wb-Upstream-Ms");
  if (res->status != 200) {
    c.error = "HTTP " + std::to_string(res->status) + ": " + res->body.substr(0, 200);
  } else if (c.receiver != "a" || res->body != SoapReceiver::answer("a", request.body.size())) {
    c.error = "routed to receiver '" + c.receiver + "', expected a, or the answer differs";
  }
  return c;
}

std::string call_json(const std::string& series, int index, const SoapRequest& request,
                      const Knobs& knobs, const Call& c) {
  return "{\"type\": \"sappi_call\", \"series\": " + json_string(series) +
         ", \"index\": " + std::to_string(index) +
         ", \"warmup\": " + (index == 0 ? "true" : "false") +
         ", \"request\": " + json_string(request.name) +
         ", \"request_bytes\": " + std::to_string(request.body.size()) +
         ", \"router\": " + (knobs.router.empty() ? "null" : json_string(knobs.router)) +
         ", \"preauth\": " + (knobs.preauth ? "true" : "false") +
         ", \"nodelay\": " + (knobs.nodelay ? "true" : "false") +
         ", \"quickack\": " + (knobs.quickack ? "true" : "false") +
         ", \"status\": " + std::to_string(c.status) +
         ", \"attempts\": " + std::to_string(c.attempts) +
         ", \"challenge_ms\": " + (c.attempts > 1 ? fixed(c.challenge_ms) : "null") +
         ", \"route_ms\": " + fixed(c.route_ms) + ", \"upstream_ms\": " + fixed(c.upstream_ms) +
         ", \"total_ms\": " + fixed(c.total_ms) +
         ", \"link_drops\": " + std::to_string(c.link_drops) +
         ", \"error\": " + (c.error.empty() ? "null" : json_string(c.error)) + "}";
}

// The calls of one series after its warm-up call, which opens both
// connections (a new connection is in quick-ACK mode and would hide the
// delayed-ACK stalls).
constexpr int kCalls = 60;

struct Series {
  std::string name;
  Knobs knobs;
  std::vector<Call> calls;
  double median_ms() const {
    std::vector<double> v;
    for (const auto& c : calls) v.push_back(c.total_ms);
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  }
  double mean_ms(double Call::*field) const {
    double sum = 0;
    for (const auto& c : calls) sum += c.*field;
    return calls.empty() ? 0 : sum / static_cast<double>(calls.size());
  }
  int failed() const {
    return static_cast<int>(
        std::count_if(calls.begin(), calls.end(), [](const Call& c) { return !c.ok(); }));
  }
};

Series run_calls(ScenarioBed& bed, const SoapRequest& request, const std::string& name,
                 const Knobs& knobs) {
  Testbed& testbed = bed.testbed();
  Series s{name, knobs, {}};
  testbed.set_quickack(knobs.quickack);
  SoapReceiver receiver(testbed, request.body, knobs.nodelay);
  Relay relay(testbed, RelaySettings{knobs.router, request.rule, !knobs.preauth, knobs.nodelay});
  run_in(testbed.namespace_name(Side::kClient), [&] {
    const auto timeout = http_io_timeout(testbed);
    httplib::Client sender(kMiddleAddress, kHttpPort);
    sender.set_connection_timeout(timeout);
    sender.set_read_timeout(timeout);
    sender.set_write_timeout(timeout);
    sender.set_keep_alive(true);
    sender.set_tcp_nodelay(knobs.nodelay);
    sender.set_socket_options([timeout](socket_t sock) { set_socket_timeouts(sock, timeout); });
    for (int i = 0; i <= kCalls; ++i) {
      Call c = one_call(sender, testbed, request, knobs);
      std::printf("%s\n", call_json(name, i, request, knobs, c).c_str());
      if (i > 0) s.calls.push_back(std::move(c));
    }
    std::fflush(stdout);
  });
  for (const auto& e : relay.take_errors()) {
    std::printf("{\"type\": \"relay_error\", \"error\": %s}\n", json_string(e).c_str());
  }
  testbed.set_quickack(false);
  std::printf(
      "{\"type\": \"sappi_series\", \"series\": %s, \"request\": %s, \"request_bytes\": %zu, "
      "\"settings\": %s, \"calls\": %zu, \"failed\": %d, \"median_ms\": %s, \"mean_ms\": %s, "
      "\"route_ms_mean\": %s}\n",
      json_string(name).c_str(), json_string(request.name).c_str(), request.body.size(),
      json_string(knobs.text()).c_str(), s.calls.size(), s.failed(), fixed(s.median_ms()).c_str(),
      fixed(s.mean_ms(&Call::total_ms)).c_str(), fixed(s.mean_ms(&Call::route_ms)).c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "wirebench_wire: sappi: %s (%s): median %.3f ms per call, %d failed\n",
               name.c_str(), request.name.c_str(), s.median_ms(), s.failed());
  return s;
}

void print_saving(const std::string& knob, const Series& slow, const Series& fast,
                  double published_ms, const std::string& published_note) {
  const double saving = slow.median_ms() - fast.median_ms();
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": \"sappi\", \"series\": %s, \"knob\": %s, "
      "\"slow\": %s, \"fast\": %s, \"calls\": %zu, \"failed\": %d, \"slow_median_ms\": %s, "
      "\"fast_median_ms\": %s, \"saving_ms\": %s, \"saving_mean_ms\": %s, "
      "\"published_saving_ms\": %s, \"published\": %s}\n",
      json_string(slow.name + " vs " + fast.name).c_str(), json_string(knob).c_str(),
      json_string(slow.knobs.text()).c_str(), json_string(fast.knobs.text()).c_str(),
      slow.calls.size() + fast.calls.size(), slow.failed() + fast.failed(),
      fixed(slow.median_ms()).c_str(), fixed(fast.median_ms()).c_str(), fixed(saving).c_str(),
      fixed(slow.mean_ms(&Call::total_ms) - fast.mean_ms(&Call::total_ms)).c_str(),
      fixed(published_ms).c_str(), json_string(published_note).c_str());
  std::fflush(stdout);
  std::fprintf(stderr,
               "wirebench_wire: sappi: %s: %s saves %.3f ms per call (published: %.0f ms)\n",
               knob.c_str(), fast.name.c_str(), saving, published_ms);
}

}  // namespace

int run_sappi(const TestbedConfig& base) {
  TestbedConfig config = base;
  config.middle = true;
  ScenarioBed bed("sappi", config);
  int failed = 0;
  auto count = [&](const Series& s) {
    failed += s.failed();
    return s;
  };

  // (a) Content routing: the relay parses the request with each router of
  // codecs/route, against routing by the URL.
  for (const auto& [dataset, rows] :
       {std::pair<const char*, int>{"airport", 101}, {"science", 1000}}) {
    const SoapRequest request = soap_request(dataset, rows);
    const Series url = count(run_calls(bed, request, "url " + request.name, Knobs{}));
    for (const wb::RouterEntry* r : wb::routers_of("soap")) {
      Knobs knobs;
      knobs.router = std::string(r->library);
      const Series content =
          count(run_calls(bed, request, knobs.router + " " + request.name, knobs));
      print_saving("content routing", content, url, 300,
                   "SAP PI: content-based routing about 300 ms per message");
    }
  }

  // (b) A 401 challenge: the sender without pre-authentication sends the
  // request twice.
  {
    const SoapRequest request = soap_request("airport", 101);
    Knobs challenge;
    challenge.preauth = false;
    const Series slow = count(run_calls(bed, request, "challenge " + request.name, challenge));
    const Series fast = count(run_calls(bed, request, "preauth " + request.name, Knobs{}));
    print_saving("pre-authentication", slow, fast, 120,
                 "SAP PI: HTTP pre-authentication saves the 401 round trip, about 120 ms");
  }

  // (c) Delayed ACK: a request and an answer smaller than a segment, each
  // written as head and body, with Nagle on every connection; fixed by
  // TCP_NODELAY on the senders or by quickack on the receivers' routes.
  {
    const SoapRequest request = soap_request("message", 10);
    Knobs nagle;
    nagle.nodelay = false;
    Knobs quickack = nagle;
    quickack.quickack = true;
    const Series slow = count(run_calls(bed, request, "nagle " + request.name, nagle));
    const Series nodelay = count(run_calls(bed, request, "nodelay " + request.name, Knobs{}));
    const Series quick = count(run_calls(bed, request, "quickack " + request.name, quickack));
    print_saving("delayed ACK", slow, nodelay, 150,
                 "SAP PI: delayed-ACK stalls 150-200 ms (Windows, 200 ms ACK timer)");
    print_saving("delayed ACK", slow, quick, 150,
                 "SAP PI: delayed-ACK stalls 150-200 ms (Windows, 200 ms ACK timer)");
  }
  bed.flush_server_errors();
  return failed ? 1 : 0;
}

}  // namespace wire
