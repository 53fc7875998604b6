#!/usr/bin/python3
"""wirebench compare: two result files side by side.

Prints first the machine and build facts that differ between the files (CPU model, host,
compiler, flags, library versions, ...; a ratio across machines is not a code comparison), then,
per benchmark timed in both files, the median cpu_time and real_time, new/old and a
two-sided Mann-Whitney U-test over the repetitions (as Google Benchmark's compare.py does, in
pure Python: exact p when the smaller sample has at most 8 values and no ties, else the normal
approximation with tie and continuity corrections), then a wirebench summary: per format, the
biggest regressions and improvements by the ratio of median times.
"""

import argparse
import sys

from wbtools import cli, compare, results


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench compare", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", metavar="OLD.json", help="baseline result file")
    parser.add_argument("new", metavar="NEW.json", help="result file to compare with it")
    parser.add_argument("--clock", choices=("cpu", "real"), default="cpu",
                        help="time used for the summary's ratios (default cpu_time)")
    parser.add_argument("--top", type=int, default=3, metavar="N",
                        help="regressions and improvements shown per format (default 3)")
    parser.add_argument("--summary-only", action="store_true",
                        help="skip the U-test table, print only the summary")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    old, new = results.load(args.old), results.load(args.new)
    differences = compare.context_differences(old, new)
    if differences:
        print(differences)
        print()
    if not args.summary_only:
        print(compare.utest_table(old, new))
        print()
    print(compare.summary(old, new, args.clock, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
