"""`wirebench compare`: a U-test table over the repetitions plus a per-format summary.

The table does what Google Benchmark's compare.py did for us (a Mann-Whitney U-test per
benchmark on cpu_time and real_time) with stats.mann_whitney_u: compare.py needs scipy, whose
Debian package conflicts with libboost-json1.81-dev.
"""

import filecmp
import math
import os
import statistics
from dataclasses import dataclass

from .. import stats, units
from ..cli import result_stem

# compare.py's thresholds: no test below 2 repetitions, significance at 5 %.
UTEST_MIN_REPETITIONS = 2
UTEST_ALPHA = 0.05


# Context keys that describe the machine or the build: when one differs, a new/old ratio mixes
# a code change with a machine or build change. (date, load average and the like always differ.)
MACHINE_KEYS = ("host_name", "cpu_model", "mhz_per_cpu", "num_cpus", "caches", "kernel",
                "cpu_pinned", "glibc_tunables")
BUILD_KEYS = ("compiler", "cxx_flags", "wirebench_build_type", "left_out",
              "simdjson_implementation", "dataset_seed")


def _context_value(key, value):
    if value is None:
        return "(not recorded)"
    if key == "caches" and isinstance(value, list):
        # Google Benchmark's list of {type, level, size, num_sharing}; [] when sysfs hides them.
        shown = [f"L{c.get('level')}{str(c.get('type', '?'))[0].lower()} "
                 f"{units.binary_size(c.get('size', 0))}" for c in value]
        return ", ".join(shown) or "(none reported)"
    return str(value)


def context_differences(old, new):
    """Markdown: the machine and build facts (and library versions) that differ between the two
    files, or that only one file records; "" when none does."""
    libraries = sorted(key for key in set(old.context) | set(new.context)
                       if key.startswith("library."))
    rows = []
    machine = False
    for key in MACHINE_KEYS + BUILD_KEYS + tuple(libraries):
        before, after = old.context.get(key), new.context.get(key)
        if before == after:
            continue
        machine |= key in MACHINE_KEYS and before is not None and after is not None
        rows.append([key, _context_value(key, before), _context_value(key, after)])
    if not rows:
        return ""
    lines = ["## Context differences", ""]
    if machine:
        lines += ["**The two files come from different machines or machine settings**: a "
                  "new/old ratio below mixes the code change with the machine change. Compare "
                  "code on one machine, in runs made one after the other.", ""]
    lines.append(units.table(["context", "old", "new"], rows, "lll"))
    return "\n".join(lines)


def _change(before, after):
    return f"{after / before:.3f}x" if before > 0 else "-"


# A benchmark is called slower or faster only when the U-test says the two samples differ
# (p < UTEST_ALPHA), the interval of new/old excludes 1, and the change is at least
# MIN_CHANGE: across two runs of one build on a shared machine, medians move by a percent or
# two between runs (the VM's state), which no number of repetitions within a run removes.
MIN_CHANGE = 0.03


@dataclass(frozen=True)
class Verdict:
    ratio: float  # new/old: the median of the pairwise ratios (Hodges-Lehmann)
    interval: object  # stats.Interval of new/old, or None with too few repetitions
    p: float  # two-sided U-test p-value, nan with too few repetitions
    method: str
    call: str  # "slower", "faster", "same", "settled" or "too few repetitions"


def verdict(old_times, new_times, min_change=MIN_CHANGE, settled=False):
    """The comparison of one benchmark's repetitions on one clock. settled: racing settled
    it in either run (benchmarks/race.hpp): it ran 3-5 rounds there, too few for a 95 %
    interval, so it is called "settled", never slower, faster or the same, with the widest
    interval its rounds give (stats.ratio_interval, widest: 90 % for 3 against 3)."""
    if settled and min(len(old_times), len(new_times)) >= 1:
        test = stats.mann_whitney_u(old_times, new_times)
        ratio, interval = stats.ratio_interval(new_times, old_times, widest=True)
        return Verdict(ratio, interval, test.p, test.method, "settled")
    if min(len(old_times), len(new_times)) < UTEST_MIN_REPETITIONS:
        ratio = (statistics.median(new_times) / statistics.median(old_times)
                 if old_times and new_times and statistics.median(old_times) > 0 else math.nan)
        return Verdict(ratio, None, math.nan, "-", "too few repetitions")
    test = stats.mann_whitney_u(old_times, new_times)
    ratio, interval = stats.ratio_interval(new_times, old_times)
    if interval is None:  # too few for a 95 % interval: p alone calls nothing
        return Verdict(ratio, None, test.p, test.method, "too few repetitions")
    call = "same"
    if (test.p < UTEST_ALPHA and interval is not None and abs(ratio - 1) >= min_change
            and (interval.low > 1 or interval.high < 1)):
        call = "slower" if ratio > 1 else "faster"
    return Verdict(ratio, interval, test.p, test.method, call)


def _ratio_text(v):
    if math.isnan(v.ratio):
        return "-"
    if v.interval is None:
        return f"{v.ratio:.3f}x"
    coverage = "" if v.interval.confidence >= stats.CONFIDENCE else \
        f" ({v.interval.confidence:.0%})"
    return f"{v.ratio:.3f}x [{v.interval.low:.3f}, {v.interval.high:.3f}]{coverage}"


def samples(before, after, clock="cpu"):
    """The two samples a benchmark is compared on: for two runs in rounds each one's
    per-round ratios to its unit's probe (wbtools/results/paired.py), which divide out the
    machine's speed in that moment (the probe is the same code in both builds); else
    the repetitions' times."""
    if before.ratios[clock] and after.ratios[clock]:
        return list(before.ratios[clock].values()), list(after.ratios[clock].values())
    return before.times(clock), after.times(clock)


# The machine-speed probes every band times (benchmarks/calibration.cpp): fixed workloads no
# change to wirebench alters, so a call on one of them is a call on the machine.
CALIBRATION_PREFIX = "calibration/"


def verdicts(old, new, clock="cpu", min_change=MIN_CHANGE, probes=False):
    """{name: Verdict} for the benchmarks timed in both files: the cases, or with probes the
    calibration probes alone."""
    out = {}
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        if name.startswith(CALIBRATION_PREFIX) != probes:
            continue
        out[name] = verdict(*samples(before, after, clock), min_change,
                            settled=bool(before.settled or after.settled))
    return out


def machine_speed(old, new, clock="cpu", min_change=MIN_CHANGE):
    """Markdown: the calibration probes of both files with the same calls as the cases, and a
    warning when one of them moved: then the two runs had the machine at different speeds and
    the calls on the cases compare the machine as much as the code. "" when neither file has
    probes."""
    found = verdicts(old, new, clock, min_change, probes=True)
    has = [any(n.startswith(CALIBRATION_PREFIX) for n in r.runs) for r in (old, new)]
    if not any(has):
        return ""
    lines = ["## Machine speed (calibration probes)", ""]
    if not found:
        lines.append("Only the " + ("old" if has[0] else "new") + " file has calibration probes "
                     "(calibration/{band}/...): whether the machine ran at one speed in both runs "
                     "is unknown.")
        return "\n".join(lines)
    moved = sorted(n for n, v in found.items() if v.call in ("slower", "faster"))
    if moved:
        lines += [f"**The machine ran at another speed in the new run** ({len(moved)} of "
                  f"{len(found)} probes called different): the calls on the benchmarks below "
                  "compare the machine as much as the code. Time both builds in one run with "
                  "`./wirebench ab OLD NEW` (the two in alternation), or make both runs again.",
                  ""]
    else:
        lines += ["No probe moved: the machine ran at one speed in both runs, as far as two "
                  "fixed workloads per band can tell (benchmarks/calibration.cpp).", ""]
    rows = [[f"`{name}`", units.seconds(old.runs[name].figure(clock)),
             units.seconds(new.runs[name].figure(clock)), _ratio_text(v), v.call]
            for name, v in sorted(found.items())]
    lines.append(units.table(["probe", "old", "new", "new/old [95 % interval]", "call"], rows,
                             "lrrrl"))
    return "\n".join(lines)


def utest_table(old, new, clock="cpu", min_change=MIN_CHANGE):
    """Markdown: per benchmark timed in both files, the median times, new/old with its 95 %
    interval, the two-sided U-test p-value and the call (slower, faster or same), the
    benchmarks called different first; then how many are called each way."""
    found = verdicts(old, new, clock, min_change)
    if not found:
        return "## U-test\n\nNo benchmark is timed in both files."
    order = {"slower": 0, "faster": 1, "same": 2, "settled": 3, "too few repetitions": 4}
    rows = []
    fewest = None
    for name in sorted(found, key=lambda n: (order[found[n].call], -abs(found[n].ratio - 1)
                                              if not math.isnan(found[n].ratio) else 0, n)):
        v = found[name]
        before, after = old.runs[name], new.runs[name]
        p = "-" if math.isnan(v.p) else f"{v.p:.4f}" + (" *" if v.p < UTEST_ALPHA else "")
        old_sample, new_sample = samples(before, after, clock)
        rows.append([f"`{name}`", f"{len(old_sample)}/{len(new_sample)}",
                     units.seconds(before.figure(clock)), units.seconds(after.figure(clock)),
                     _ratio_text(v), p, v.call])
        count = min(len(old_sample), len(new_sample))
        fewest = count if fewest is None else min(fewest, count)
    calls = {}
    for v in found.values():
        calls[v.call] = calls.get(v.call, 0) + 1
    tally = ", ".join(f"{calls[c]} {c}" for c in order if c in calls)
    lines = [f"## U-test ({clock}_time, two-sided Mann-Whitney over the repetitions)", "",
             f"{len(found)} benchmarks in both files: {tally}. A benchmark is called slower or "
             f"faster when p < {UTEST_ALPHA}, the 95 % interval of new/old excludes 1 and the "
             f"change is at least {min_change:.0%} (`--min-change`). new/old is the median of "
             "the pairwise ratios of the repetitions (of two runs in rounds: of each round's "
             "ratio to its unit's probe, which divides out the machine's speed; old and new "
             "are then the paired times), its interval the Hodges-Lehmann (Moses) "
             "interval that inverts the U-test; p is exact when the smaller sample has at most "
             "8 values and no ties, else the normal approximation with tie and continuity "
             "corrections. At 5 %, about 1 in 20 benchmarks that did not change would pass "
             "the test alone; the interval and the minimum change keep the noise of one "
             "machine between runs out of the calls. A benchmark that racing settled in "
             "either run (it lost its comparison by a margin and stopped after 3-5 rounds) "
             "is called settled: its interval, the widest its rounds give, is shown with its "
             "coverage, and it is never called slower, faster or the same.", "",
             units.table(["benchmark", "repetitions old/new", "old", "new",
                          "new/old [95 % interval]", "p", "call"], rows, "lrrrrrl")]
    if fewest is not None and fewest < 6:
        lines += ["", f"Some benchmarks have only {fewest} repetitions on a side: below 6 the "
                      "95 % interval is out of reach and p cannot fall below "
                      f"{_smallest_p(fewest):.3f} (`./wirebench bench --repetitions`)."]
    return "\n".join(lines)


def _smallest_p(n):
    """The smallest two-sided exact p of n against n values."""
    return min(1.0, 2 / math.comb(2 * n, n)) if n > 0 else 1.0


def ratios(old, new, clock="cpu"):
    """[(name, old median, new median, new/old)] for benchmarks present and timed in both."""
    out = []
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        old_time, new_time = before.figure(clock), after.figure(clock)
        if old_time > 0 and new_time > 0:
            out.append((name, old_time, new_time, new_time / old_time))
    return out


def summary(old, new, clock="cpu", top=3):
    """Markdown: per format, the biggest regressions and improvements by median time ratio."""
    compared = ratios(old, new, clock)
    only_old = sorted(set(old.runs) - set(new.runs))
    only_new = sorted(set(new.runs) - set(old.runs))
    lines = [f"## wirebench summary ({clock}_time figures, new/old)", ""]
    if not compared:
        lines.append("No benchmark is timed in both files.")
    by_format = {}
    for item in compared:
        by_format.setdefault(item[0].split("/", 1)[0], []).append(item)
    rows = []
    for fmt in sorted(by_format):
        items = sorted(by_format[fmt], key=lambda item: item[3])
        worse = [item for item in reversed(items) if item[3] > 1][:top]
        better = [item for item in items if item[3] < 1][:top]
        for kind, chosen in (("regression", worse), ("improvement", better)):
            for name, before, after, ratio in chosen:
                rows.append([fmt, kind, f"`{name}`", units.seconds(before), units.seconds(after),
                             f"{ratio:.3f}x ({100 * (ratio - 1):+.1f} %)"])
        if not worse and not better:
            rows.append([fmt, "unchanged", f"{len(items)} benchmarks", "-", "-", "1.000x"])
    if rows:
        lines.append(units.table(["format", "kind", "benchmark", "old", "new", "new/old"], rows,
                                 "lllrrr"))
    if compared:
        geo = 1.0
        for item in compared:
            geo *= item[3] ** (1 / len(compared))
        lines += ["", f"{len(compared)} benchmarks compared; geometric mean of new/old: "
                      f"{geo:.3f}x. Whether a change is real: the U-test calls above."]
    for label, names in (("only in the old file", only_old), ("only in the new file", only_new)):
        if names:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            lines.append(f"{len(names)} {label}: {shown}")
    return "\n".join(lines)


def page_path(old_path, new_path, results_dir, build_dir):
    """Where compare writes its page without --html. results_dir holds the published runs, so
    a page written there is an untracked file in the published tree: then the page goes to
    build_dir/compare/<OLD name>-vs-<NEW name>.html; a NEW outside results_dir keeps its page
    beside it, in its report folder, as compare-<OLD name>.html."""
    old_name, new_name = (result_stem(os.path.basename(p)) for p in (old_path, new_path))
    new_real = os.path.realpath(new_path)
    if not _inside(new_real, results_dir):
        return os.path.join(result_stem(new_real), f"compare-{old_name}.html")
    return os.path.join(build_dir, "compare", f"{old_name}-vs-{new_name}.html")


def _inside(path, folder):
    folder = os.path.realpath(folder)
    return os.path.commonpath([path, folder]) == folder


def same_runs(old_path, new_path):
    """Why comparing the two paths compares a run with itself ("the same file", "identical
    contents"), or "" when they differ."""
    if os.path.samefile(old_path, new_path):
        return "the same file"
    if filecmp.cmp(old_path, new_path, shallow=False):
        return "two copies of one file (identical contents)"
    return ""
