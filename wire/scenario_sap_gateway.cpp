// SAP Gateway behind the relay: the question the proof of concept's team had,
// asked in the dialects SAP Gateway serves. OData v2 Atom (atom-v2) against
// v2 verbose JSON (json-verbose) against v3 JSON light (json), over
// relay-2009 (the link of the poc and azure scenarios): 100 messages per call
// and the 8,100-row science subset read by server-driven paging (pages of
// 1,000, each page's next link followed as a client library follows it),
// with one client; then 100 messages with 100 clients at once, as the poc
// scenario loads the service. Without pre-authentication the first call on a
// connection is answered 401 and sent again with credentials.
//
// With 100 clients only the message calls run: at this link's 1.548 Mbit/s
// one round of 100 science pages alone is 16 MB of JSON light (about 90 s),
// and about 7 times that as Atom.

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "wire/concurrent_clients.hpp"
#include "wire/netns.hpp"
#include "wire/scenario.hpp"

namespace wire {
namespace {

constexpr char kScenario[] = "sap-gateway";
constexpr int kClients = 100;
constexpr int kWarmCalls = 10;   // message/100 after the first call
constexpr int kSubsetReads = 2;  // science/8100: the first read, then a warm one
// As in the poc scenario: a call past this is one a client with a 30 s
// timeout would have abandoned; counted, not cut short. No concurrent call
// starts later than the deadline after the release.
constexpr double kTimeoutS = 30;
constexpr auto kStartDeadline = std::chrono::seconds(90);

struct Format {
  const char* format;
};
const Format kFormats[] = {{"atom-v2"}, {"json-verbose"}, {"json"}};

HttpSpec spec_for(const Format& f, const char* dataset, int rows, int top) {
  HttpSpec s;
  s.dataset = dataset;
  s.rows = rows;
  s.top = top;
  s.format = f.format;
  s.encoder = field_codec(f.format, wb::Role::encode);
  s.decoder = field_codec(f.format, wb::Role::decode);
  s.paging = true;
  s.challenge = true;
  validate(s);
  return s;
}

// The first call with its 401 challenge, then the warm calls.
std::vector<HttpSpec> message_calls(const Format& f) {
  const HttpSpec first = spec_for(f, "message", 100, -1);
  HttpSpec warm = first;
  warm.challenge = false;
  std::vector<HttpSpec> calls(1, first);
  calls.insert(calls.end(), kWarmCalls, warm);
  return calls;
}

void print_line(const HttpSpec& spec, const std::string& series, int index, const HttpResult& r) {
  std::printf("%s\n", r.json(spec, series, index).c_str());
  std::fflush(stdout);
}

// Summary of calls of one series: the first, the median of the rest.
struct Summary {
  double first_ms = 0, warm_median_ms = 0, seconds = 0;
  int failed = 0;
  std::uint64_t body_bytes = 0;  // of one call (the last)
};

void print_summary(const std::string& series, const char* unit, const Summary& s, int calls,
                   int pages) {
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": \"%s\", \"series\": %s, \"unit\": \"%s\", "
      "\"calls\": %d, \"pages\": %d, \"failed\": %d, \"first_ms\": %s, \"warm_median_ms\": %s, "
      "\"seconds\": %s, \"body_bytes\": %llu}\n",
      kScenario, json_string(series).c_str(), unit, calls, pages, s.failed,
      fixed(s.first_ms).c_str(), fixed(s.warm_median_ms).c_str(), fixed(s.seconds).c_str(),
      static_cast<unsigned long long>(s.body_bytes));
  std::fflush(stdout);
  std::fprintf(stderr,
               "wirebench_wire: %s: %s: first %s %.0f ms, warm median %.0f ms, %llu B per %s, "
               "%d failed\n",
               kScenario, series.c_str(), unit, s.first_ms, s.warm_median_ms,
               static_cast<unsigned long long>(s.body_bytes), unit, s.failed);
}

int run_messages(ScenarioBed& bed, const Format& f) {
  const std::string series = std::string(f.format) + "/message/100";
  const std::vector<HttpResult> results = run_series(bed, kScenario, series, message_calls(f));
  Summary s;
  std::vector<double> warm;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const HttpResult& r = results[i];
    s.seconds += r.total_ms / 1e3;
    if (!r.ok()) ++s.failed;
    if (i > 0 && r.ok()) warm.push_back(r.total_ms);
  }
  s.first_ms = results.front().total_ms;
  s.warm_median_ms = distribution(warm).median;
  s.body_bytes = results.back().body_bytes;
  print_summary(series, "call", s, static_cast<int>(results.size()), 1);
  return s.failed;
}

// One read of the subset: the first page, then each next link the decoder
// read, until a page has none. The pages must cover the rows in order.
std::vector<HttpResult> read_subset(HttpClient& client, const HttpSpec& first,
                                    const std::string& series, int& index, std::string& error) {
  std::vector<HttpResult> pages;
  pages.push_back(client.get(first));
  const int most = (first.rows + first.top - 1) / first.top;
  while (pages.back().ok() && !pages.back().next_link.empty() &&
         static_cast<int>(pages.size()) <= most) {
    pages.push_back(client.follow(first, pages.back().next_link));
  }
  int rows = 0;
  for (const HttpResult& r : pages) {
    print_line(first, series, index++, r);
    rows += r.rows;
    if (!r.ok() && error.empty()) error = r.error;
  }
  if (error.empty() && rows != first.rows)
    error = "the next links led to " + std::to_string(rows) + " rows in " +
            std::to_string(pages.size()) + " pages, not " + std::to_string(first.rows);
  return pages;
}

int run_subset(ScenarioBed& bed, const Format& f) {
  const std::string series = std::string(f.format) + "/science/8100";
  HttpSpec first = spec_for(f, "science", 8100, 1000);
  Summary s;
  std::vector<double> warm;
  int pages = 0;
  run_in(bed.testbed().namespace_name(Side::kClient), [&] {
    HttpClient client(bed.testbed());
    int index = 0;
    for (int read = 0; read < kSubsetReads; ++read) {
      std::string error;
      const std::vector<HttpResult> got = read_subset(client, first, series, index, error);
      double ms = 0;
      s.body_bytes = 0;
      for (const HttpResult& r : got) ms += r.total_ms, s.body_bytes += r.body_bytes;
      pages = static_cast<int>(got.size());
      s.seconds += ms / 1e3;
      if (!error.empty()) {
        ++s.failed;
        std::printf(
            "{\"type\": \"scenario_error\", \"scenario\": \"%s\", \"series\": %s, "
            "\"error\": %s}\n",
            kScenario, json_string(series).c_str(), json_string(error).c_str());
      }
      (read == 0 ? s.first_ms : warm.emplace_back()) = ms;
      std::fprintf(stderr, "wirebench_wire: %s: %s: read %d of %d, %zu pages, %.1f s%s\n",
                   kScenario, series.c_str(), read + 1, kSubsetReads, got.size(), ms / 1e3,
                   error.empty() ? "" : (", failed: " + error).c_str());
      first.challenge = false;  // the connection is authenticated now
    }
  });
  bed.flush_server_errors();
  s.warm_median_ms = distribution(warm).median;
  print_summary(series, "subset", s, kSubsetReads, pages);
  return s.failed;
}

// Returns the calls that failed other than by the load.
int run_concurrent_messages(ScenarioBed& bed, const Format& f) {
  const std::string series = std::string("concurrent ") + f.format + "/message/100";
  const std::vector<HttpSpec> calls = message_calls(f);
  std::fprintf(stderr,
               "wirebench_wire: %s: %s: %d clients x %zu calls, none started after %lld s\n",
               kScenario, series.c_str(), kClients, calls.size(),
               static_cast<long long>(kStartDeadline.count()));
  const ConcurrentRun run = run_concurrent(bed.testbed(), kClients, calls, kStartDeadline,
                                           std::string(kScenario) + ": " + series);
  const CallTally tally = print_calls(run, calls, series);
  std::vector<double> all;
  int past_timeout = 0;
  std::uint64_t body = 0;
  for (const ConcurrentCall* c : tally.ok) {
    const HttpResult& r = c->result;
    all.push_back(r.total_ms);
    body = r.body_bytes;
    if (r.total_ms > kTimeoutS * 1e3) ++past_timeout;
  }
  bed.flush_server_errors();
  const Distribution d = distribution(all);
  std::printf(
      "{\"type\": \"scenario_result\", \"scenario\": \"%s\", \"series\": %s, \"clients\": %d, "
      "\"calls_per_client\": %zu, \"start_deadline_s\": %lld, \"calls\": %zu, \"not_started\": "
      "%d, \"failed\": %d, \"median_ms\": %s, \"p95_ms\": %s, \"max_ms\": %s, \"timeout_s\": %s, "
      "\"past_timeout\": %d, \"wall_s\": %s, \"link_drops\": %llu, \"body_bytes\": %llu}\n",
      kScenario, json_string(series).c_str(), kClients, calls.size(),
      static_cast<long long>(kStartDeadline.count()), run.calls.size(), run.not_started,
      tally.failed, fixed(d.median).c_str(), fixed(d.p95).c_str(), fixed(d.max).c_str(),
      fixed(kTimeoutS).c_str(), past_timeout, fixed(run.wall_s).c_str(),
      static_cast<unsigned long long>(run.link_drops), static_cast<unsigned long long>(body));
  std::fflush(stdout);
  std::fprintf(stderr,
               "wirebench_wire: %s: %s: %zu calls (%d not started) in %.1f s: median %.0f ms, "
               "p95 %.0f ms, max %.0f ms, %d past %.0f s, %d failed\n",
               kScenario, series.c_str(), run.calls.size(), run.not_started, run.wall_s, d.median,
               d.p95, d.max, past_timeout, kTimeoutS, tally.failed);
  return tally.wrong;
}

}  // namespace

int run_sap_gateway(const TestbedConfig& config) {
  ScenarioBed bed(kScenario, config);
  int failed = 0;
  for (const Format& f : kFormats) failed += run_messages(bed, f);
  for (const Format& f : kFormats) failed += run_subset(bed, f);
  for (const Format& f : kFormats) failed += run_concurrent_messages(bed, f);
  return failed ? 1 : 0;
}

}  // namespace wire
