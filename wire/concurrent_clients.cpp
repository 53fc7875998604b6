#include "wire/concurrent_clients.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <latch>
#include <memory>
#include <mutex>
#include <thread>

#include "wire/link.hpp"
#include "wire/netns.hpp"

namespace wire {
namespace {

std::uint64_t total_drops(const Testbed& testbed) {
  const auto& f = testbed.forwarder();
  return f.stats(Direction::kClientToServer).packets_dropped +
         f.stats(Direction::kServerToClient).packets_dropped;
}

}  // namespace

ConcurrentRun run_concurrent(const Testbed& testbed, int clients,
                             const std::vector<HttpSpec>& calls,
                             std::chrono::milliseconds start_deadline, const std::string& label) {
  ConcurrentRun run;
  std::mutex mutex;  // guards run.calls and run.not_started
  std::atomic<int> done{0};
  std::atomic<std::int64_t> release_ns{0};
  // Every client connects only after all have their thread, namespace and
  // client: the first calls then start together, as a load test's do.
  std::latch ready(clients + 1), go(1);
  const std::int64_t deadline_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(start_deadline).count();
  const std::string ns = testbed.namespace_name(Side::kClient);
  const std::uint64_t drops_before = total_drops(testbed);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(clients));
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::unique_ptr<HttpClient> client;
      std::string failure;
      try {
        enter_namespace(ns);
        client = std::make_unique<HttpClient>(testbed);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      ready.count_down();
      go.wait();
      if (!client) {
        std::fprintf(stderr, "wirebench_wire: %s: client %d made no call: %s\n", label.c_str(), c,
                     failure.c_str());
        std::lock_guard<std::mutex> lock(mutex);
        run.not_started += static_cast<int>(calls.size());
        return;
      }
      std::vector<ConcurrentCall> mine;
      int skipped = 0;
      for (std::size_t i = 0; i < calls.size(); ++i) {
        const std::int64_t start = monotonic_ns() - release_ns.load();
        if (start > deadline_ns) {
          skipped = static_cast<int>(calls.size() - i);
          break;
        }
        ConcurrentCall call;
        call.client = c;
        call.call = static_cast<int>(i);
        call.start_s = static_cast<double>(start) / 1e9;
        call.result = client->get(calls[i]);
        mine.push_back(std::move(call));
        ++done;
      }
      std::lock_guard<std::mutex> lock(mutex);
      run.not_started += skipped;
      for (auto& call : mine) run.calls.push_back(std::move(call));
    });
  }
  ready.arrive_and_wait();
  release_ns = monotonic_ns();
  go.count_down();
  // Progress every 10 s while the clients run; they finish on their own.
  std::thread progress([&] {
    const std::size_t total = calls.size() * static_cast<std::size_t>(clients);
    std::int64_t next_ns = release_ns + 10'000'000'000LL;
    while (true) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (run.calls.size() + static_cast<std::size_t>(run.not_started) == total) return;
      }
      if (monotonic_ns() >= next_ns) {
        std::fprintf(stderr, "wirebench_wire: %s: %d of %zu calls done, %.0f s\n", label.c_str(),
                     done.load(), total, static_cast<double>(next_ns - release_ns) / 1e9);
        next_ns += 10'000'000'000LL;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  for (auto& t : threads) t.join();
  run.wall_s = static_cast<double>(monotonic_ns() - release_ns) / 1e9;
  progress.join();
  run.link_drops = total_drops(testbed) - drops_before;
  std::sort(run.calls.begin(), run.calls.end(),
            [](const ConcurrentCall& a, const ConcurrentCall& b) { return a.start_s < b.start_s; });
  return run;
}

CallTally print_calls(const ConcurrentRun& run, const std::vector<HttpSpec>& calls,
                      const std::string& series) {
  CallTally tally;
  for (std::size_t i = 0; i < run.calls.size(); ++i) {
    const ConcurrentCall& c = run.calls[i];
    const HttpResult& r = c.result;
    std::string line = r.json(calls[static_cast<std::size_t>(c.call)], series, static_cast<int>(i));
    line.pop_back();
    std::printf("%s, \"client\": %d, \"call\": %d, \"start_s\": %s}\n", line.c_str(), c.client,
                c.call, fixed(c.start_s).c_str());
    if (r.ok()) {
      tally.ok.push_back(&c);
      continue;
    }
    ++tally.failed;
    if (r.error.rfind("HTTP exchange failed", 0) != 0) ++tally.wrong;
  }
  return tally;
}

Distribution distribution(std::vector<double> values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  d.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
  d.p95 = values[std::max<std::size_t>(rank, 1) - 1];
  d.max = values.back();
  return d;
}

}  // namespace wire
