// route/{library}: the content-routing predicate (a middleware hop reading
// the first record's key before forwarding), with every router of the format
// from the registry, on the reference payload. Set beside decode/ of the same
// payload it shows what sniffing costs against binding every record.
#include <exception>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/kept.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/timed_loops.hpp"
#include "benchmarks/verify.hpp"

namespace wb::bench {
namespace {

// Empty if the router says true for the rule and false for a wrong value.
std::string check(Router& router, std::string_view library, std::string_view payload,
                  const RouteRule& rule) {
  return failure_of(library, [&]() -> std::string {
    if (!router.route(payload, rule))
      return std::string(library) + ": no match for the first key '" + rule.value + "'";
    RouteRule wrong = rule;
    wrong.value += "-not";
    if (router.route(payload, wrong))
      return std::string(library) + ": matched the wrong value '" + wrong.value + "'";
    return {};
  });
}

void run(benchmark::State& state, const RouterEntry& entry, const CodecEntry& enc,
         DatasetKind dataset, int rows, Check& once) {
  Group& g = group(enc.format, dataset, rows);
  const Payload& payload = g.payload(enc);
  if (!payload.error.empty()) return state.SkipWithError(payload.error.c_str());
  const auto rule = first_key_rule(g.records());
  if (!rule) return state.SkipWithError("the dataset has no key to route on");
  // Checked (two routes: a match and a miss) on the first entry; a later
  // state is warmed up by one route.
  auto* router = prepared<std::unique_ptr<Router>>(
      state, once, [&](std::unique_ptr<Router>& fresh, bool first) {
        fresh = entry.make();
        return first ? check(*fresh, entry.library, payload.bytes, *rule)
                     : failure_of(entry.library, [&] { fresh->route(payload.bytes, *rule); });
      });
  if (!router) return;

  timed_loop(state, [&] {
    bool match = (*router)->route(payload.bytes, *rule);
    benchmark::DoNotOptimize(match);
    benchmark::ClobberMemory();
  });
  set_throughput(state, payload.bytes.size(), row_count(g.records()));
}

}  // namespace

void register_route_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                               DatasetKind dataset, int rows) {
  for (const RouterEntry* r : routers_of(encoder.format))
    register_in_band(prefix + "route/" + std::string(r->library),
                     [r, enc = &encoder, dataset, rows, once = std::make_shared<Check>()](
                         benchmark::State& s) { run(s, *r, *enc, dataset, rows, *once); });
}

}  // namespace wb::bench
