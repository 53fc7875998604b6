#!/usr/bin/python3
"""wirebench compare: two result files side by side.

Runs Google Benchmark's own /usr/share/benchmark/compare.py (`benchmarks OLD NEW`: time
differences with a Mann-Whitney U-test over the repetitions) and adds a wirebench summary:
per format, the biggest regressions and improvements by the ratio of median times.
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
    parser.add_argument("--aggregates-only", action="store_true",
                        help="compare.py shows only the aggregates (-a)")
    parser.add_argument("--summary-only", action="store_true",
                        help="skip compare.py's table, print only the summary")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    # Check both files first: compare.py would answer a bad file with a traceback.
    old, new = results.load(args.old), results.load(args.new)
    status = 0
    if not args.summary_only:
        extra = ["-a"] if args.aggregates_only else []
        if not sys.stdout.isatty():
            extra.append("--no-color")
        code = compare.run_compare_py(args.old, args.new, extra)
        if code is None or code != 0:
            print(f"wirebench: compare.py {'is missing' if code is None else f'exited {code}'}",
                  file=sys.stderr)
            status = 1
        print()
    print(compare.summary(old, new, args.clock, args.top))
    return status


if __name__ == "__main__":
    sys.exit(cli.run(main))
