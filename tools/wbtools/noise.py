"""Noise check of a result file: the benchmarks whose coefficient of variation over the
repetitions is above a threshold (default 5 %).

Every result file carries the CV already: Google Benchmark 1.7.1 writes a `_cv` aggregate per
benchmark when repetitions >= 2, and the file keeps every repetition, from which the CV is
recomputed here (cpu_time; real_time for wall-clock benchmarks such as the thread runs).
Run as `python3 -m wbtools.noise RESULT.json [--threshold 0.05]`; prints nothing when no case
is above the threshold.
"""

import argparse
import math
import sys

from . import cli, results

THRESHOLD = 0.05


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


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m wbtools.noise", description=__doc__)
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


if __name__ == "__main__":
    sys.exit(cli.run(main))
