#!/usr/bin/python3
"""A stand-in for wirebench_bench and wirebench_bench_memory in tools/commands/bench.sh's tests.

It behaves as Google Benchmark 1.7.1 and our main() do where tools/commands/bench.sh depends on it:
--wirebench_rows=LOW-HIGH keeps the benchmarks of that band; --benchmark_filter selects
(re.search); no match prints "Failed to match any benchmarks against regex: R" and exits 1,
a regex that does not compile "Could not compile benchmark re: ..." and exit 1;
--benchmark_list_tests=true prints the names; a run writes the context (every codec's labels
among it) and the DEBUG warning to stderr, the console table (mean, median, stddev and cv
lines, the cv of a zero counter as -nan%) to stdout, and the JSON to --benchmark_out.
--wirebench_scope prints the run_scope main() would write (benchmarks/scope.hpp): focused with
any --benchmark_filter or --wirebench_threads, else whole; the context carries run_scope.
FAKE_BENCH_CRASH=LOW-HIGH makes the run of that band print a line and abort.
With --wirebench_rounds=N it writes what benchmarks/rounds.cpp writes: per unit (dataset/rows)
N rounds, each competitor once a round with its round fields, the unit's probe at both ends
of every round (a fixed 1 us), a `_median` line per benchmark and no aggregates.
"""

import json
import os
import re
import signal
import sys

# name -> (rows, cpu time in us of repetition 0, step per repetition)
BENCHMARKS = {
    "atom/message/100/decode/fast/from:reference": (100, 10.0, 0.1),
    "atom/message/100/decode/slow/from:reference": (100, 30.0, 0.2),
    "atom/science/1000/decode/fast/from:reference": (1000, 900.0, 5.0),
    "atom/science/8100/decode/fast/from:reference": (8100, 9000.0, 40.0),
}
LABELS = {"codec.atom.decode.fast": "DOM, copying", "codec.atom.decode.slow": "SAX, no tree",
          "codec.json.decode.other": "DOM, in situ"}


def in_band(rows, band):
    low, _, high = band.partition("-")
    return int(low) <= rows and (not high or rows <= int(high))


def rounds_entries(names, rounds):
    """The iteration entries of a run in rounds: per unit and round, the probe, the
    competitors, the probe."""
    units = {}
    for name in names:
        units.setdefault("/".join(name.split("/")[1:3]), []).append(name)
    entries, round_id = [], 0
    for unit, members in units.items():
        probe = f"reference/byte-scan/{BENCHMARKS[members[0]][0]}"
        for index in range(rounds):
            sequence = [probe] + members + [probe]
            for slot, name in enumerate(sequence):
                cpu = 1.0 if name == probe else BENCHMARKS[name][1] + BENCHMARKS[name][2] * index
                entries.append({"name": name, "run_name": name, "run_type": "iteration",
                                "repetitions": rounds, "repetition_index": index, "threads": 1,
                                "iterations": 100, "real_time": cpu, "cpu_time": cpu,
                                "time_unit": "us", "minflt_per_iter": 0.0, "round": index,
                                "round_id": round_id, "round_slot": slot,
                                "paired_reference": int(name == probe)})
            round_id += 1
    return entries


def main(argv):
    flags = dict(arg.split("=", 1) for arg in argv if arg.startswith("--") and "=" in arg)
    scope = ("focused" if "--benchmark_filter" in flags or "--wirebench_threads" in argv
             else "whole")
    if "--wirebench_scope" in argv:
        print(scope)
        return 0
    band = flags.get("--wirebench_rows")
    pattern = flags.get("--benchmark_filter", ".")
    try:
        regex = re.compile(pattern)
    except re.error as err:
        print(f"Could not compile benchmark re: {err}", file=sys.stderr)
        return 1
    names = [name for name, (rows, _, _) in BENCHMARKS.items()
             if (band is None or in_band(rows, band)) and regex.search(name)]
    if not names:
        print(f"Failed to match any benchmarks against regex: {pattern}", file=sys.stderr)
        return 1
    if flags.get("--benchmark_list_tests") == "true":
        print("\n".join(names))
        return 0
    if band is not None and os.environ.get("FAKE_BENCH_CRASH") == band:
        print("wirebench_bench: the fake's crash", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGABRT)
    memory = os.path.basename(sys.argv[0]) == "wirebench_bench_memory"
    rounds = int(flags.get("--wirebench_rounds", "0"))
    repetitions = rounds or int(flags.get("--benchmark_repetitions", "1"))
    context = {"date": "2026-01-01T00:00:00+00:00", "executable": os.path.basename(sys.argv[0]),
               "git_commit": os.environ.get("WIREBENCH_COMMIT", "unknown"),
               "dataset_seed": "42", "cxx_flags": "-O2", "benchmark_filter": pattern,
               "run_scope": scope, "run_kind": "default" if scope == "whole" else "focused",
               "library_build_type": "debug", **LABELS}
    if band:
        context["rows_band"] = band
    if rounds:
        context.update(run_design="rounds", rounds=str(rounds))
    print("Run on (2 X 2300 MHz CPU s)", file=sys.stderr)
    for key, value in sorted(context.items()):
        print(f"{key}: {value}", file=sys.stderr)
    print("***WARNING*** Library was built as DEBUG. Timings may be affected.", file=sys.stderr)
    rule = "-" * 100
    print(f"{rule}\nBenchmark{' ' * 40}Time             CPU   Iterations UserCounters...\n{rule}")
    entries = []
    if rounds:
        entries = rounds_entries(names, rounds)
        for name in names + sorted({e["name"] for e in entries if e["paired_reference"]}):
            times = sorted(e["cpu_time"] for e in entries if e["name"] == name)
            print(f"{name}_median {times[len(times) // 2]:12.3f} us {len(times)} rounds")
        names = []
    for name in names:
        rows, base, step = BENCHMARKS[name]
        times = [base + step * i for i in range(repetitions)]
        for index, cpu in enumerate(times):
            entry = {"name": name, "run_name": name, "run_type": "iteration",
                     "repetitions": repetitions, "repetition_index": index, "threads": 1,
                     "iterations": 100, "real_time": cpu, "cpu_time": cpu, "time_unit": "us",
                     "minflt_per_iter": 0.0}
            if memory:
                entry.update(allocs_per_iter=3.0, max_bytes_used=640,
                             total_allocated_bytes=700, net_heap_growth=0)
            entries.append(entry)
        median = sorted(times)[len(times) // 2]
        if repetitions > 1:
            for aggregate, value in (("mean", sum(times) / len(times)), ("median", median),
                                     ("stddev", 0.1)):
                print(f"{name}_{aggregate:<8} {value:8.1f} us {value:8.1f} us {repetitions:10d} "
                      f"minflt_per_iter=0")
            print(f"{name}_cv       {1.0:8.2f} % {1.0:8.2f} % {repetitions:10d} "
                  "minflt_per_iter=-nan%")
        else:
            print(f"{name} {median:8.1f} us {median:8.1f} us {100:10d} minflt_per_iter=0")
    out = flags.get("--benchmark_out")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            json.dump({"context": context, "benchmarks": entries}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
