"""The data of a comparison page: two result files, per benchmark new/old with its interval.

Per benchmark timed in both files: the medians, the ratio new/old with the Moses/Hodges-
Lehmann 95 % interval (stats.ratio_interval, the interval the Mann-Whitney U-test inverts) and
the U-test's p. A change is called significant when its interval excludes 1; with too few
repetitions for a 95 % interval it is not judged. The machine and build differences come from
compare.context_differences, as `wirebench compare` prints them.
"""

from .. import compare, stats
from . import data as page_data, markdown


def verdict(interval):
    if interval is None:
        return "too few repetitions"
    if interval.low > 1:
        return "slower"
    if interval.high < 1:
        return "faster"
    return "no significant change"


def build(old, new, clock="cpu"):
    rows = []
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        old_times, new_times = before.times(clock), after.times(clock)
        if not old_times or not new_times or min(old_times + new_times) <= 0:
            continue
        point, interval = stats.ratio_interval(new_times, old_times)
        test = (stats.mann_whitney_u(old_times, new_times)
                if min(len(old_times), len(new_times)) >= compare.UTEST_MIN_REPETITIONS else None)
        bench = before.name
        rows.append({"name": name, "format": bench.format or "-", "op": bench.op or "-",
                     "old": before.median(clock), "new": after.median(clock),
                     "n_old": len(old_times), "n_new": len(new_times), "ratio": point,
                     "low": interval.low if interval else None,
                     "high": interval.high if interval else None,
                     "coverage": interval.confidence if interval else None,
                     "p": test.p if test else None, "verdict": verdict(interval)})
    differences = compare.context_differences(old, new)
    return page_data.clean({
        "old": old.path.rsplit("/", 1)[-1], "new": new.path.rsplit("/", 1)[-1],
        "result": new.path.rsplit("/", 1)[-1], "clock": clock,
        "differences": markdown.to_html(differences) if differences else "",
        "machine_differs": "different machines" in differences,
        "old_context": page_data.context_rows(old.context),
        "new_context": page_data.context_rows(new.context),
        "rows": rows,
        "only_old": sorted(set(old.runs) - set(new.runs)),
        "only_new": sorted(set(new.runs) - set(old.runs)),
    })
