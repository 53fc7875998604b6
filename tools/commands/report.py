#!/usr/bin/python3
"""wirebench report: the report page, REPORT.md and charts for one result file.

Writes into DIR, the result file's name without .json beside it (results/<stamp>-<host>-
<commit>/ for a published result) unless --out says otherwise:
  report.html  one self-contained page (data and Chart.js inlined, from the Debian package
               libjs-chart.js; no network needed) for any run, whole suite or a few
               benchmarks: what the run holds and does not; a focused run's competitors side
               by side with their ratio and its 95 % interval; with an encode in the run,
               pick a dataset, a size and a link profile or your own bandwidth and RTT, and
               it leads with the fastest call of each format, then ranks every pairing by
               end-to-end time; then throughput with intervals, the serializer x parser heat
               map, decode against parse-only, memory, sizes against the published figures,
               conformance, the machine and build, the noise, the measured wire and its
               scenarios (when their files are beside RESULT), and every other table
  REPORT.md    a summary of at most a screen or two: what the run holds, context, the
               fastest call per dataset and link, a focused run's competitors, the biggest
               findings, a link to the page
  time-split-DATASET-ROWS.svg  where one call's time goes, per link profile
With --screenshots also report-desktop.png and report-phone.png (headless Chromium, Debian
package chromium). docs/report.md describes the page.
"""

import argparse
import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli, report, results  # noqa: E402
from wbtools.results import conformance, machine, payload, standalone  # noqa: E402
from wbtools.report import depth  # noqa: E402
from wbtools.transfer import links  # noqa: E402
from wbtools.wire import scenario_run  # noqa: E402
from wbtools.page import screenshots  # noqa: E402


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
    parser.add_argument("--wire", metavar="FILE",
                        help="`wirebench wire --matrix` result to show beside the model "
                             "(default: the newest *-wire.json of the same machine beside "
                             "RESULT; the page shows that section only when there is one)")
    parser.add_argument("--scenarios", nargs="+", metavar="FILE",
                        help="`wirebench wire --scenario NAME` files to show (default: the "
                             "newest *-NAME-scenario.json of each scenario of the same machine "
                             "beside RESULT; the page shows that section only when there is one)")
    parser.add_argument("--screenshots", action="store_true",
                        help="also write report-desktop.png (1366x900) and report-phone.png "
                             "(390x844) of the page's first view, with headless Chromium")
    parser.add_argument("--chart-link", default="loopback", metavar="NAME",
                        help="checked to be a known link; the page draws time against "
                             "bandwidth for the link the reader picks")
    return parser.parse_args(argv)


def _newest_wire(folder, result):
    """The newest -wire.json beside the result from the same machine that holds raw TCP
    cases (not a run of `wire --matrix --stack` alone: the page's table is of transfers),
    or None."""
    name = machine.slug(str(result.context.get("cpu_model", "")))
    for path in reversed(cli.json_files(folder, f"*-{name}-*-wire")):
        data = cli.read_json(path, "the measured-wire file")
        if not isinstance(data, dict) or any(not c.get("stack") for c in data.get("cases", [])):
            return path
    return None


def _scenarios(paths, folder, result):
    """The scenario files to show, loaded, each with its "file" name: those given, or the
    newest of each scenario beside the result from the same machine."""
    if not paths:
        name = machine.slug(str(result.context.get("cpu_model", "")))
        paths = list(scenario_run.newest_per_scenario(folder, name).values())
    out = []
    for path in paths:
        data = cli.read_json(path, "the scenario file")
        if not isinstance(data, dict) or data.get("type") != scenario_run.TYPE:
            raise cli.UserError(f"{path}: not a `wirebench wire --scenario NAME` file")
        out.append({**data, "file": os.path.basename(path)})
    return out


def main(argv=None):
    args = parse_args(argv)
    result = results.load(args.result)
    profiles = links.load_links(args.links)
    links.pick(profiles, args.chart_link)  # an unknown name is a user error, reported now
    out = args.out or cli.result_stem(os.path.abspath(args.result))
    if os.path.exists(out) and not os.path.isdir(out):
        raise cli.UserError(f"{out}: exists and is not a directory")
    base = cli.result_stem(args.result)
    threads = args.threads or (base + "-threads.json" if os.path.exists(base + "-threads.json")
                               else None)
    icount = args.icount or (base + "-icount.json" if os.path.exists(base + "-icount.json")
                             else None)
    threads_result = results.load(threads) if threads else None
    icounts = depth.load_icount(icount) if icount else None
    matrix = args.conformance or (base + "-conformance.json"
                                  if os.path.exists(base + "-conformance.json") else None)
    conformance_matrix = conformance.load(matrix) if matrix else None
    verdict_path = base + "-verdict.json"
    verdict = payload.load_verdict(verdict_path) if os.path.exists(verdict_path) else None
    loops = args.standalone or (base + "-standalone.json"
                                if os.path.exists(base + "-standalone.json") else None)
    standalone_times = standalone.load(loops) if loops else None
    wire = args.wire or _newest_wire(os.path.dirname(os.path.abspath(args.result)), result)
    wire_result = cli.read_json(wire, "the measured-wire file") if wire else None
    if wire_result is not None and (not isinstance(wire_result, dict)
                                    or wire_result.get("type") != "wirebench-wire"):
        raise cli.UserError(f"{wire}: not a `wirebench wire --matrix` result")
    scenario_files = _scenarios(args.scenarios, os.path.dirname(os.path.abspath(args.result)),
                                result)
    try:
        path = report.write(result, list(profiles.values()), out, args.chart_link,
                            threads_result, icounts, conformance_matrix, standalone_times,
                            wire_result, scenario_files, verdict)
    except OSError as err:
        raise cli.UserError(f"{out}: cannot write the report: {err.strerror or err}") from None
    print(path)
    page = os.path.join(out, report.PAGE)
    print(page)
    if args.screenshots:
        try:
            for shot in screenshots.take(page, out):
                print(shot)
        except OSError as err:
            raise cli.UserError(f"{page}: screenshots failed: {err}") from None
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
