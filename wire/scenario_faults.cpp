// The error paths of the HTTP exchange, each of which must end one request
// with a clear error and leave the server serving: a bad query (400), bytes
// that are not HTTP (400 from the library), a server that drops the
// connection halfway through a body (the client's read fails), a client that
// stops reading (the server's write times out), then a good call.

#include <chrono>
#include <cstdio>
#include <thread>

#include "wire/link.hpp"

#include "wire/netns.hpp"
#include "wire/scenario.hpp"

namespace wire {
namespace {

bool report(const char* name, const std::string& outcome, bool as_expected) {
  std::printf("{\"type\": \"fault\", \"case\": %s, \"outcome\": %s, \"as_expected\": %s}\n",
              json_string(name).c_str(), json_string(outcome).c_str(),
              as_expected ? "true" : "false");
  std::fflush(stdout);
  std::fprintf(stderr, "wirebench_wire: faults: %s: %s%s\n", name, outcome.c_str(),
               as_expected ? "" : " (NOT as expected)");
  return as_expected;
}

}  // namespace

int run_faults(const TestbedConfig& config) {
  ScenarioBed bed("faults", config);
  Testbed& testbed = bed.testbed();
  const std::string client_ns = testbed.namespace_name(Side::kClient);
  bool all = true;

  HttpSpec good;
  good.dataset = "science";
  good.rows = 1000;
  good.encoding = "gzip";  // every build has it (cmake/optional_libraries.cmake)
  validate(good);

  HttpSpec bad = good;
  bad.encoder = "no-such-encoder";
  HttpResult r = run_in(client_ns, [&] { return HttpClient(testbed).get(bad); });
  all &= report("bad query", r.error, r.status == 400);

  std::string line = run_in(client_ns, [&] { return send_garbage(testbed); });
  all &= report("not HTTP", line, line.rfind("HTTP/1.1 400", 0) == 0);

  HttpSpec die = good;
  die.fault = "die";
  r = run_in(client_ns, [&] { return HttpClient(testbed).get(die); });
  all &= report("server dies mid-response", r.error, !r.ok() && r.status == 0);

  // Enough bytes to fill the server's socket buffers behind a 4 KB receive
  // window: the 8,100-row Atom feed, uncompressed.
  HttpSpec big = good;
  big.rows = 8100;
  big.format = "atom";
  big.encoding = "identity";
  big.decoder.clear();
  validate(big);
  // The client holds its connection open for four timeouts; the server must
  // give up on its own within two (a blocked send() runs out its
  // SO_SNDTIMEO, then cpp-httplib's wait for room runs out its write timeout).
  const auto timeout = http_io_timeout(testbed);
  const int hold_ms = static_cast<int>(timeout.count()) * 4;
  std::fprintf(stderr, "wirebench_wire: faults: a client that stops reading for %.0f s\n",
               hold_ms / 1e3);
  bed.http().take_errors();  // the die case's line
  const std::int64_t start_ns = monotonic_ns();
  std::thread holder([&] {
    enter_namespace(client_ns);
    stop_reading(testbed, big, hold_ms);
  });
  std::string server_saw;
  while (server_saw.empty() && monotonic_ns() - start_ns < 3'000'000LL * timeout.count()) {
    for (const auto& e : bed.http().take_errors()) server_saw += e;
    if (server_saw.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double after_s = static_cast<double>(monotonic_ns() - start_ns) / 1e9;
  holder.join();
  all &= report("client stops reading",
                (server_saw.empty() ? std::string("the server did not give up") : server_saw) +
                    " (after " + std::to_string(after_s).substr(0, 4) +
                    " s, the client still "
                    "connected)",
                server_saw.find("stopped reading") != std::string::npos);

  r = run_in(client_ns, [&] { return HttpClient(testbed).get(good); });
  std::printf("%s\n", r.json(good, "after faults", 0).c_str());
  all &=
      report("good call after them", r.ok() ? "decoded and checked" : r.error, r.ok() && r.checked);
  return all ? 0 : 1;
}

}  // namespace wire
