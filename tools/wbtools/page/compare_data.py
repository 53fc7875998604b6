"""The data of a comparison page: two result files, per benchmark new/old with its interval.

Per benchmark timed in both files: the medians, the ratio new/old with the Moses/Hodges-
Lehmann 95 % interval (stats.ratio_interval, the interval the Mann-Whitney U-test inverts) and
the U-test's p, with compare.verdict's call, as `wirebench compare` prints it (a benchmark
racing settled in either file is called "settled", with the widest interval its rounds give
and that interval's coverage, below 95 %). The machine and
build differences and the machine's speed (the calibration probes) come from
compare.context_differences and compare.machine_speed.
"""

import math

from .. import compare
from . import context, data as page_data, markdown

# compare.verdict's calls as the page words them.
CALLS = {"slower": "slower", "faster": "faster", "same": "no significant change",
         "settled": "settled", "too few repetitions": "too few repetitions"}


def _settled(before, after):
    """Which file's racing settled the benchmark, after how many rounds, and why: the
    settled row's hover text; None when neither did."""
    said = [f"{side}: settled after {run.settled['after']} rounds; {run.settled['by']}"
            for side, run in (("old", before), ("new", after)) if run.settled]
    return "\n".join(said) or None


def build(old, new, clock="cpu", min_change=compare.MIN_CHANGE):
    rows = []
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        old_times, new_times = compare.samples(before, after, clock)
        if not old_times or not new_times or min(old_times + new_times) <= 0:
            continue
        v = compare.verdict(old_times, new_times, min_change,
                            settled=bool(before.settled or after.settled))
        interval = v.interval
        bench = before.name
        rows.append({"name": name, "format": bench.format or "-", "op": bench.op or "-",
                     "old": before.figure(clock), "new": after.figure(clock),
                     "n_old": len(old_times), "n_new": len(new_times), "ratio": v.ratio,
                     "low": interval.low if interval else None,
                     "high": interval.high if interval else None,
                     "coverage": interval.confidence if interval else None,
                     "p": None if math.isnan(v.p) else v.p, "verdict": CALLS[v.call]})
        if v.call == "settled":
            rows[-1]["settled"] = _settled(before, after)
    differences = compare.context_differences(old, new)
    speed = compare.machine_speed(old, new, clock, min_change)
    return page_data.clean({
        "old": old.path.rsplit("/", 1)[-1], "new": new.path.rsplit("/", 1)[-1],
        "result": new.path.rsplit("/", 1)[-1], "clock": clock,
        "differences": markdown.to_html("\n\n".join(t for t in (differences, speed) if t)),
        "machine_differs": "different machines" in differences,
        "old_context": context.rows(old.context),
        "new_context": context.rows(new.context),
        "rows": rows,
        "only_old": sorted(set(old.runs) - set(new.runs)),
        "only_new": sorted(set(new.runs) - set(old.runs)),
    })
