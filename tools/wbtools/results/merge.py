"""One result file from the parts of a run: one Google Benchmark JSON per size band.

tools/commands/bench.sh runs the suite as one process per band of rows, each with its own
minimum time per repetition (benchmarks/band.hpp says why). The published file is one
Google Benchmark JSON: the first part's context (the parts come from one executable, one
after the other), the bands with their minimum times and benchmark counts in
`context.bands`, the machine state before and after in `context.machine_state`, and every
part's benchmarks in order.

The memory figures come from a run of their own (--memory), of wirebench_bench_memory, which
interposes malloc where the timed executable does not: one repetition per benchmark, whose
figures (one call's, benchmarks/memory.cpp) are written into each timed repetition of the
same benchmark. Google Benchmark 1.7.1 writes stale figures into every repetition of a
memory run but the last; with one repetition there is none.

A run in rounds (benchmarks/rounds.hpp, context run_design "rounds") gets its round ids
made unique across the parts, each competitor's per-round ratio to its unit's probe, and the
aggregates after the repetitions: mean, median, stddev, cv and the paired figures
(wbtools/results/paired.py).

usage: tools/commands/bench_step.py merge OUT.json --state-before S.json --state-after S.json
                                [--memory MEMORY.json ...] PART.json:ROWS:MIN_TIME ...
"""

import argparse
import json
import os

from wbtools import cli
from wbtools.results import paired
from wbtools.results import MEMORY_FIELDS

# Context fields that differ between the parts by nature (the band, the start time).
PER_PART_KEYS = ("rows_band", "date", "rounds_split")
# Context fields of the memory run that say what its figures are.
MEMORY_CONTEXT_KEYS = ("allocation_counter", "memory_figures")


def _same_run(first, other, what):
    for key in ("git_commit", "dataset_seed", "cxx_flags"):
        if other.get(key) != first.get(key):
            raise cli.UserError(f"merge: {what} has another {key} ({other.get(key)!r}): not one run")


def join_memory(merged, memory):
    """Writes the memory run's figures into merged's timed repetitions, in place, and says in
    the context where they come from. A benchmark the memory run did not measure keeps no
    figures. Returns how many benchmarks got figures."""
    context = merged["context"]
    _same_run(context, memory.get("context", {}), "the memory run")
    figures = {}
    for entry in memory.get("benchmarks", []):
        if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
            continue
        found = {f: entry[f] for f in MEMORY_FIELDS if f in entry}
        if found:
            figures[entry.get("run_name", entry.get("name"))] = found
    for entry in merged["benchmarks"]:
        if entry.get("run_type", "iteration") == "iteration":
            entry.update(figures.get(entry.get("run_name", entry.get("name")), {}))
    mem_context = memory.get("context", {})
    for key in MEMORY_CONTEXT_KEYS:
        if key in mem_context:
            context[key] = mem_context[key]
        else:
            context.pop(key, None)
    context["memory_run"] = {"executable": mem_context.get("executable"),
                             "date": mem_context.get("date"), "benchmarks": len(figures)}
    return len(figures)


def merge(parts, state_before=None, state_after=None, memory=None):
    """parts: [(data, rows, min_time)], memory: the memory run's result or None; returns the
    merged result (a new dict)."""
    if not parts:
        raise cli.UserError("merge: no part to merge")
    first = parts[0][0]
    context = {k: v for k, v in first.get("context", {}).items()
               if k not in ("rows_band", "rounds_started", "rounds_split")}
    # A run in rounds writes its context at the end: the run's date is when it started.
    if first.get("context", {}).get("rounds_started"):
        context["date"] = first["context"]["rounds_started"]
    for data, rows, _ in parts[1:]:
        other = data.get("context", {})
        if other.get("executable") != context.get("executable"):
            raise cli.UserError(f"merge: the part for rows {rows} has another executable "
                                f"({other.get('executable')!r}): not one run")
        _same_run(context, other, f"the part for rows {rows}")
    context["bands"] = [{"rows": rows, "min_time_s": min_time,
                         **({"rounds": int(data["context"]["rounds"])}
                            if paired.in_rounds(data.get("context")) else {}),
                         "started": data.get("context", {}).get("rounds_started")
                         or data.get("context", {}).get("date"),
                         # where the band's wall time went (benchmarks/rounds.cpp)
                         **({"split": data["context"]["rounds_split"]}
                            if "rounds_split" in data.get("context", {}) else {}),
                         "benchmarks": sum(1 for b in data.get("benchmarks", [])
                                           if b.get("run_type") == "iteration"
                                           and b.get("repetition_index", 0) == 0)}
                        for data, rows, min_time in parts]
    if state_before is not None or state_after is not None:
        context["machine_state"] = {"before": state_before, "after": state_after}
    if paired.in_rounds(context):
        lists = [data.get("benchmarks", []) for data, _, _ in parts]
        paired.renumber(lists)
        for entries in lists:
            paired.settled_fields(entries)
            paired.pair(entries)
        for entries in lists:
            entries += paired.aggregates(entries)
    benchmarks = [b for data, _, _ in parts for b in data.get("benchmarks", [])]
    merged = {"context": context, "benchmarks": benchmarks}
    if memory is not None:
        join_memory(merged, memory)
    return merged


def _part(spec):
    path, sep, rest = spec.partition(":")
    rows, sep2, min_time = rest.partition(":")
    if not sep or not sep2:
        raise cli.UserError(f"merge: '{spec}' is not PART.json:ROWS:MIN_TIME")
    return cli.read_json(path, "a part of the run"), rows, float(min_time)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench_step.py merge",
                                     description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("out", metavar="OUT.json")
    parser.add_argument("parts", nargs="+", metavar="PART.json:ROWS:MIN_TIME")
    parser.add_argument("--state-before", metavar="S.json")
    parser.add_argument("--state-after", metavar="S.json")
    parser.add_argument("--memory", metavar="MEMORY.json", action="append",
                        help="the memory run (wirebench_bench_memory) whose figures to join; "
                             "again for each further part of it (one per band)")
    args = parser.parse_args(argv)
    parts = [_part(spec) for spec in args.parts]
    before = cli.read_json(args.state_before, "a machine state") if args.state_before else None
    after = cli.read_json(args.state_after, "a machine state") if args.state_after else None
    memory = None
    for path in args.memory or []:
        part = cli.read_json(path, "the memory run")
        if memory is None:
            memory = part
        else:
            memory["benchmarks"] = memory.get("benchmarks", []) + part.get("benchmarks", [])
    merged = merge(parts, before, after, memory)
    tmp = args.out + ".merge.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(merged, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, args.out)
    return 0

