#!/usr/bin/python3
"""wirebench report: REPORT.md and charts for one result file.

Writes DIR/REPORT.md plus PNG charts, DIR being the result file's name without .json beside
it (results/<stamp>-<host>-<commit>/ for a published result) unless --out says otherwise:
sizes (raw and compressed) against the published figures, encode/decode throughput per
library with the spread over repetitions, the serializer x parser matrix, parse-only against
decode + bind, the standalone loops beside our seam (RESULT-standalone.json), the fraction
of memcpy bandwidth, and the transfer model on every link.
"""

import argparse
import os
import sys

from wbtools import cli, conformance, depth, links, report, results, standalone


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench report", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", metavar="RESULT.json", help="Google Benchmark JSON result file")
    parser.add_argument("--out", metavar="DIR", help="output directory (default: beside RESULT)")
    parser.add_argument("--links", metavar="FILE",
                        help="extra link profiles (same shape as tools/links.json)")
    parser.add_argument("--threads", metavar="FILE",
                        help="result of `wirebench bench --threads` (default: RESULT-threads.json "
                             "if it exists)")
    parser.add_argument("--icount", metavar="FILE",
                        help="`wirebench icount` output (default: RESULT-icount.json if it exists)")
    parser.add_argument("--conformance", metavar="FILE",
                        help="`wirebench conformance --json` output (default: "
                             "RESULT-conformance.json if it exists; `wirebench bench` writes it)")
    parser.add_argument("--standalone", metavar="FILE",
                        help="wirebench_standalone's JSON (default: RESULT-standalone.json if it "
                             "exists; `wirebench bench` writes it)")
    parser.add_argument("--chart-link", default="loopback", metavar="NAME",
                        help="link whose RTT and knobs the time-against-bandwidth chart uses "
                             "(default loopback: near-zero RTT isolates the bandwidth)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    result = results.load(args.result)
    profiles = links.load_links(args.links)
    links.pick(profiles, args.chart_link)  # an unknown name is a user error, reported now
    out = args.out or os.path.splitext(os.path.abspath(args.result))[0]
    if os.path.exists(out) and not os.path.isdir(out):
        raise cli.UserError(f"{out}: exists and is not a directory")
    base = os.path.splitext(args.result)[0]
    threads = args.threads or (base + "-threads.json" if os.path.exists(base + "-threads.json")
                               else None)
    icount = args.icount or (base + "-icount.json" if os.path.exists(base + "-icount.json")
                             else None)
    threads_result = results.load(threads) if threads else None
    icounts = depth.load_icount(icount) if icount else None
    matrix = args.conformance or (base + "-conformance.json"
                                  if os.path.exists(base + "-conformance.json") else None)
    conformance_matrix = conformance.load(matrix) if matrix else None
    loops = args.standalone or (base + "-standalone.json"
                                if os.path.exists(base + "-standalone.json") else None)
    standalone_times = standalone.load(loops) if loops else None
    try:
        path = report.write(result, list(profiles.values()), out, args.chart_link,
                            threads_result, icounts, conformance_matrix, standalone_times)
    except OSError as err:
        raise cli.UserError(f"{out}: cannot write the report: {err.strerror or err}") from None
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
