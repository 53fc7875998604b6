// What a run covers, written into its result's context as run_scope. This is
// the one rule that tells the whole suite from a part of it: the tools
// (publish, the page, results/README.md) and tools/run_bench.sh read the field
// or ask this executable (--wirebench_scope), and judge nothing themselves.
#pragma once

#include <span>
#include <string_view>

namespace wb::bench {

enum class RunScope { whole, focused, payload };

// whole: every benchmark the suite registers by default, timed as the suite
// times it. Any --benchmark_filter makes a run focused, "." included: the
// one who typed it chose a selection, and a run that chose one skips the
// steps that describe the whole suite (the standalone loops, icount). So are
// a thread run and a callgrind run, which register or measure other things.
// payload: a run over a user's own files (--wirebench_payload), whatever
// else it asks: it holds none of the suite's cases, so it is never a
// machine's whole-suite run, and the tools give it a page of its own.
// args are the arguments Google Benchmark is given, without argv[0].
RunScope run_scope(std::span<char* const> args, bool threads, bool icount, bool payload);

std::string_view scope_name(RunScope scope);

}  // namespace wb::bench
