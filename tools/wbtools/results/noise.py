"""Noise check of a result file: the benchmarks whose coefficient of variation over the
repetitions is above a threshold (default 5 %).

Every result file carries the CV already: Google Benchmark 1.7.1 writes a `_cv` aggregate per
benchmark when repetitions >= 2, and the file keeps every repetition, from which the CV is
recomputed here (cpu_time; real_time for wall-clock benchmarks such as the thread runs).
Run as `tools/commands/bench_step.py noise RESULT.json [--threshold 0.05]`; prints nothing when no
case is above the threshold.
"""

import argparse
import math

from .. import results, units
from . import labels

THRESHOLD = 0.05
SHOWN = 10  # the noisiest cases the report lists by name


def noisy(result, threshold=THRESHOLD):
    """[(name, cv)] of the runs whose CV is above threshold, largest first."""
    out = []
    for key, run in result.runs.items():
        if run.error:
            continue
        clock = "real" if "/real_time" in key or "/threads:" in key else "cpu"
        _, _, cv = run.spread(clock)
        if not math.isnan(cv) and cv > threshold:
            out.append((key, cv))
    return sorted(out, key=lambda item: -item[1])


def section(result, threshold=THRESHOLD):
    """REPORT.md's noise section: how many benchmarks are above threshold, per format and
    operation, and the noisiest by name; "" when none is (or no run has repetitions)."""
    cases = noisy(result, threshold)
    if not cases:
        return ""
    # Per format and operation, and per library (each side of a wcfjson pairing counts for its
    # library): a library whose times are bimodal (libxml2's DOM, see docs/findings.md) shows here,
    # not as noise everywhere. Each count is [above threshold, all].
    noisy_keys = {key for key, _ in cases}
    what = labels.of(result)
    groups, libraries = {}, {}
    for key, run in result.runs.items():
        if run.error:
            continue
        above = key in noisy_keys
        counts = [groups.setdefault((run.name.format, run.name.op), [0, 0])]
        counts += [libraries.setdefault(library, [0, 0])
                   for library in sorted(set((run.name.library or "").split("+"))) if library]
        for count in counts:
            count[0] += above
            count[1] += 1
    rows = [[fmt or "-", op or "-", f"{above} of {total}"]
            for (fmt, op), (above, total) in sorted(groups.items()) if above]
    by_library = sorted(((above / total, library, above, total)
                         for library, (above, total) in libraries.items() if above),
                        reverse=True)
    lines = ["## Noise", "",
             f"{len(cases)} of {units.count(len(result.runs))} benchmarks have a coefficient "
             f"of variation (stddev / mean over the repetitions) above {threshold:.0%}: their "
             "medians are less certain than the others'. Ratios are safest within one run, or from an "
             "interleaved focused run with more repetitions (`./wirebench bench --repetitions N "
             "--filter ...`); `./wirebench compare` tests a difference between runs.", "",
             units.table(["format", "operation", "benchmarks above"], rows, "llr"), "",
             units.table(["library", "benchmarks above", "share"],
                         [[library, f"{above} of {total}", units.percent(share, 0)]
                          for share, library, above, total in by_library], "lrr"), "",
             f"The {SHOWN} noisiest:" if len(cases) > SHOWN else "All of them:", "",
             labels.table(what, ["benchmark", "CV"],
                          [[f"`{key}`", units.percent(cv)] for key, cv in cases[:SHOWN]], "lr", 2,
                          [what.of_name(result.runs[key].name) for key, _ in cases[:SHOWN]])]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench_step.py noise", description=__doc__)
    parser.add_argument("result", metavar="RESULT.json")
    parser.add_argument("--threshold", type=float, default=THRESHOLD,
                        help="CV above which a case is listed (default 0.05)")
    args = parser.parse_args(argv)
    result = results.load(args.result)
    cases = noisy(result, args.threshold)
    if cases:
        print(f"warning: {len(cases)} of {len(result.runs)} benchmarks have a CV above "
              f"{args.threshold:.0%} over the repetitions (noisy; rerun or compare with "
              "`./wirebench compare`):")
        for name, cv in cases:
            print(f"  {cv:7.1%}  {name}")
    return 0

