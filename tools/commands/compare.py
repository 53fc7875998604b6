#!/usr/bin/python3
"""wirebench compare: two result files side by side.

Prints first the machine and build facts that differ between the files (CPU model, host,
compiler, flags, library versions, ...; a ratio across machines is not a code comparison) and
the machine's speed in each run (the calibration probes every band times: when they moved, the
machine did, and the calls compare it as much as the code), then,
per benchmark timed in both files, the median times, new/old with its 95 % interval (the
Hodges-Lehmann interval of the pairwise ratios), a two-sided Mann-Whitney U-test over the
repetitions (as Google Benchmark's compare.py does, in pure Python) and a call: slower or
faster when p < 0.05, the interval excludes 1 and the change is at least --min-change; the
benchmarks called different come first. Then a wirebench summary: per format, the biggest
regressions and improvements by the ratio of median times. Last, the comparison as a page, and
where it is: never inside results/ (the published tree) unless --html says so.
"""

import argparse
import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli, compare, results  # noqa: E402
from wbtools.page import compare_page  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    parser = cli.ArgumentParser(
        prog="wirebench compare", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", metavar="OLD.json", help="baseline result file")
    parser.add_argument("new", metavar="NEW.json", help="result file to compare with it")
    parser.add_argument("--clock", choices=("cpu", "real"), default="cpu",
                        help="time compared (default cpu_time)")
    parser.add_argument("--min-change", type=float, default=compare.MIN_CHANGE, metavar="F",
                        help="smallest change called slower or faster, as a fraction "
                             f"(default {compare.MIN_CHANGE:g}, that is {compare.MIN_CHANGE * 100:g} %%)")
    parser.add_argument("--top", type=cli.positive_int, default=3, metavar="N",
                        help="regressions and improvements shown per format (default 3)")
    parser.add_argument("--summary-only", action="store_true",
                        help="skip the U-test table, print only the summary")
    parser.add_argument("--html", metavar="PATH",
                        help="where to write the page (default: build/compare/<OLD name>-vs-"
                             "<NEW name>.html when NEW is in results/, the published tree; "
                             "else NEW's report folder, compare-<OLD name>.html)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    old, new = results.load(args.old), results.load(args.new)
    same = compare.same_runs(args.old, args.new)
    if same:
        # Every benchmark would be called "same" against itself, a row each: say why instead.
        print(f"{args.old} and {args.new} are {same}: each of its {len(old.runs):,} benchmarks "
              "would compare with itself and be called same. Give two runs, e.g. one made "
              "before a change and one after (or `./wirebench ab` for two builds).")
        return 0
    differences = compare.context_differences(old, new)
    if differences:
        print(differences)
        print()
    speed = compare.machine_speed(old, new, args.clock, args.min_change)
    if speed:
        print(speed)
        print()
    if not args.summary_only:
        print(compare.utest_table(old, new, args.clock, args.min_change))
        print()
    print(compare.summary(old, new, args.clock, args.top))
    path = args.html or compare.page_path(args.old, args.new, os.path.join(ROOT, "results"),
                                          os.path.join(ROOT, "build"))
    try:
        written = compare_page.write(old, new, path, args.clock, args.min_change)
    except OSError as err:
        raise cli.UserError(f"{path}: cannot write the page: {err.strerror or err}") from None
    print(f"\nThe page: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
