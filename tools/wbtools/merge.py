"""One result file from the parts of a run: one Google Benchmark JSON per size band.

tools/run_bench.sh runs the suite as one process per band of rows, each with its own
minimum time per repetition (benchmarks/band.hpp says why). The published file is one
Google Benchmark JSON: the first part's context (the parts come from one executable, one
after the other), the bands with their minimum times and benchmark counts in
`context.bands`, the machine state before and after in `context.machine_state`, and every
part's benchmarks in order.

usage: python3 -m wbtools.merge OUT.json --state-before S.json --state-after S.json
                                PART.json:ROWS:MIN_TIME ...
"""

import argparse
import json
import os
import sys

from wbtools import cli

# Context fields that differ between the parts by nature (the band, the start time).
PER_PART_KEYS = ("rows_band", "date")


def merge(parts, state_before=None, state_after=None):
    """parts: [(data, rows, min_time)]; returns the merged result (a new dict)."""
    if not parts:
        raise cli.UserError("merge: no part to merge")
    first = parts[0][0]
    context = {k: v for k, v in first.get("context", {}).items() if k != "rows_band"}
    for data, rows, _ in parts[1:]:
        other = data.get("context", {})
        for key in ("executable", "git_commit", "dataset_seed", "cxx_flags"):
            if other.get(key) != first.get("context", {}).get(key):
                raise cli.UserError(f"merge: the part for rows {rows} has another {key} "
                                    f"({other.get(key)!r}): not one run")
    context["bands"] = [{"rows": rows, "min_time_s": min_time,
                         "started": data.get("context", {}).get("date"),
                         "benchmarks": sum(1 for b in data.get("benchmarks", [])
                                           if b.get("run_type") == "iteration"
                                           and b.get("repetition_index", 0) == 0)}
                        for data, rows, min_time in parts]
    if state_before is not None or state_after is not None:
        context["machine_state"] = {"before": state_before, "after": state_after}
    benchmarks = [b for data, _, _ in parts for b in data.get("benchmarks", [])]
    return {"context": context, "benchmarks": benchmarks}


def _part(spec):
    path, sep, rest = spec.partition(":")
    rows, sep2, min_time = rest.partition(":")
    if not sep or not sep2:
        raise cli.UserError(f"merge: '{spec}' is not PART.json:ROWS:MIN_TIME")
    return cli.read_json(path, "a part of the run"), rows, float(min_time)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m wbtools.merge",
                                     description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("out", metavar="OUT.json")
    parser.add_argument("parts", nargs="+", metavar="PART.json:ROWS:MIN_TIME")
    parser.add_argument("--state-before", metavar="S.json")
    parser.add_argument("--state-after", metavar="S.json")
    args = parser.parse_args(argv)
    parts = [_part(spec) for spec in args.parts]
    before = cli.read_json(args.state_before, "a machine state") if args.state_before else None
    after = cli.read_json(args.state_after, "a machine state") if args.state_after else None
    merged = merge(parts, before, after)
    tmp = args.out + ".merge.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(merged, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
