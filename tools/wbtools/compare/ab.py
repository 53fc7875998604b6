"""Two builds of wirebench_bench timed in turn on the same benchmarks (`wirebench ab`).

A change to a timed path is judged in time, not only in instructions (callgrind can hide a
24 % slowdown that one extra function call causes; docs/methodology.md). A shared VM's speed
drifts by tens of percent over minutes, so two result files made at different times compare
the machine as much as the code. Here the two binaries run in alternation, round after
round, in the order old, new, new, old, old, new, ... (each pair's first runner alternates),
so that a drift touches both alike; each round's new/old ratio is taken within the round,
and their median is the answer, with the U-test over the two samples beside it.

The call is made on the rounds' ratios, a paired design: slower or faster when the
distribution-free 95 % interval of their median (the sign test's, stats.median_interval;
6 rounds or more) excludes 1 and the median moved by at least --min-change. The U-test
over the two samples ignores the pairing, so a slow stretch of the machine widens it and
it is shown, not used.
"""

import json
import os
import statistics
import subprocess

from wbtools import stats, units
from wbtools.cli import UserError, json_error
from wbtools.results import entry_seconds


def order(rounds):
    """The runs, as ("old"|"new", round) in the order they are made: each round runs both
    binaries, and the one that goes first alternates, so neither always runs after the
    other (ABBA)."""
    runs = []
    for i in range(rounds):
        pair = ("old", "new") if i % 2 == 0 else ("new", "old")
        runs += [(side, i) for side in pair]
    return runs


def cpu_times(report):
    """{benchmark name: cpu_time in seconds} of one Google Benchmark JSON report (its
    iteration runs; aggregates and errored runs left out)."""
    times = {}
    for entry in report.get("benchmarks", []):
        if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
            continue
        times[entry["name"]] = entry_seconds(entry, "cpu_time")
    return times


# The smallest change called, as in compare (wbtools/compare/__init__.py).
MIN_CHANGE = 0.03


def call(ratios, min_change=MIN_CHANGE):
    """(call, interval) of one benchmark's per-round ratios new/old."""
    interval = stats.median_interval(ratios) if ratios else None
    if interval is None:
        return "too few rounds", None
    ratio = statistics.median(ratios)
    if abs(ratio - 1) >= min_change and (interval.low > 1 or interval.high < 1):
        return ("slower" if ratio > 1 else "faster"), interval
    return "same", interval


def summarize(old_rounds, new_rounds, min_change=MIN_CHANGE):
    """Per benchmark timed in every round of both sides: the medians, the median and range
    of the per-round ratios new/old and the two-sided U-test. old_rounds and new_rounds
    are lists (one per round) of {name: seconds}; each row has the call (call()) and the
    interval of the median ratio. Returns (rows, only_one_side) where rows
    are dicts sorted by name and only_one_side the names some run did not time."""
    if len(old_rounds) != len(new_rounds) or not old_rounds:
        raise ValueError("summarize needs the same number of rounds, at least one, per side")
    every = set().union(*old_rounds, *new_rounds)
    common = set.intersection(*(set(r) for r in old_rounds + new_rounds))
    rows = []
    for name in sorted(common):
        old = [r[name] for r in old_rounds]
        new = [r[name] for r in new_rounds]
        ratios = [n / o for o, n in zip(old, new) if o > 0]
        verdict, interval = call(ratios, min_change)
        rows.append({
            "name": name,
            "old": statistics.median(old),
            "new": statistics.median(new),
            "ratio": statistics.median(ratios) if ratios else float("nan"),
            "ratio_min": min(ratios, default=float("nan")),
            "ratio_max": max(ratios, default=float("nan")),
            "p": stats.mann_whitney_u(old, new).p,
            "interval": interval,
            "call": verdict,
        })
    return rows, sorted(every - common)


def table(rows, alpha=0.05):
    """The Markdown table of summarize()'s rows, the benchmarks called different first, then
    how many are called each way; a p below alpha is marked."""
    order = {"slower": 0, "faster": 1, "same": 2, "too few rounds": 3}
    body = []
    for row in sorted(rows, key=lambda r: (order.get(r.get("call"), 4), r["name"])):
        mark = " *" if row["p"] < alpha else ""
        interval = row.get("interval")
        shown = (f" [{interval.low:.3f}, {interval.high:.3f}]" if interval is not None else "")
        body.append([
            f"`{row['name']}`", units.seconds(row["old"]), units.seconds(row["new"]),
            f"{row['ratio']:.3f}x{shown}", f"{row['ratio_min']:.3f}-{row['ratio_max']:.3f}",
            f"{row['p']:.3g}{mark}", row.get("call", "-")])
    calls = {}
    for row in rows:
        calls[row.get("call", "-")] = calls.get(row.get("call", "-"), 0) + 1
    tally = ", ".join(f"{n} {c}" for c, n in sorted(calls.items(), key=lambda i: order.get(i[0], 4)))
    return (f"{len(rows)} benchmarks: {tally}.\n\n" +
            units.table(["benchmark", "old (median)", "new (median)",
                         "new/old (median of rounds) [95 %]", "per-round range", "p (U-test)",
                         "call"], body))


def run_once(executable, filter_regex, min_time, cpu, tunables, commit):
    """One run of executable over filter_regex: {name: cpu seconds}."""
    command = [executable, f"--benchmark_filter={filter_regex}",
               f"--benchmark_min_time={min_time}", "--benchmark_format=json"]
    if cpu is not None:
        command = ["taskset", "-c", str(cpu)] + command
    env = dict(os.environ, GLIBC_TUNABLES=tunables, WIREBENCH_COMMIT=commit)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise UserError(f"{executable} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as err:
        raise UserError(f"{executable}: its output is not Google Benchmark JSON ({json_error(err)})") from None
    times = cpu_times(report)
    if not times:
        raise UserError(f"{executable}: no benchmark matches --filter {filter_regex!r}")
    return times
