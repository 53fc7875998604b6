#pragma once

// Many HTTP clients at once: each its own thread in the client namespace, its
// own HttpClient and so its own kept-alive connection, all released together.
// Each client makes the same calls in order, as fast as they return, and
// starts none after a deadline, so that a slow series still ends by itself.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "wire/http_client.hpp"
#include "wire/http_spec.hpp"
#include "wire/testbed.hpp"

namespace wire {

struct ConcurrentCall {
  int client = 0, call = 0;  // call: the index into the calls given
  double start_s = 0;        // from the common release
  HttpResult result;
};

struct ConcurrentRun {
  std::vector<ConcurrentCall> calls;  // by start time
  int not_started = 0;                // calls the deadline left unmade
  double wall_s = 0;                  // release to the last call's end
  std::uint64_t link_drops = 0;       // packets the link dropped meanwhile, both directions
};

// clients clients, each making calls in order on its own connection; a call
// that would start more than start_deadline after the release is not made.
// Prints progress on stderr under label.
ConcurrentRun run_concurrent(const Testbed& testbed, int clients,
                             const std::vector<HttpSpec>& calls,
                             std::chrono::milliseconds start_deadline, const std::string& label);

// Prints every call of run as a JSON line on stdout (the result's line, with
// the client, the call and its start) and tallies them. A call is wrong when
// it failed other than by a connection stalled past the I/O timeout, which
// under load is a result of the series: rows that differ, a bad status.
struct CallTally {
  std::vector<const ConcurrentCall*> ok;  // the calls that succeeded, by start
  int failed = 0, wrong = 0;
};
CallTally print_calls(const ConcurrentRun& run, const std::vector<HttpSpec>& calls,
                      const std::string& series);

// Median (the mean of the middle two for an even count), p95 (nearest rank:
// the ceil(0.95 n)-th smallest) and max of a sample; all 0 when it is empty.
struct Distribution {
  std::size_t count = 0;
  double median = 0, p95 = 0, max = 0;
};
Distribution distribution(std::vector<double> values);

}  // namespace wire
