#!/usr/bin/python3
"""wirebench slow-windows: what the machine's slow windows follow, in a bounded experiment.

A shared VM runs 1.5-1.9x slower in windows from under a second to minutes (real / CPU time
stays 1.0: the CPU itself is slower). This runs one focused case for --seconds (default 600)
in each setting and reports, per setting, how much of the time is slow:

  cpu0, cpu1         the case pinned to CPU 0, then to CPU 1
  thp-never,         transparent huge pages `never`, then `madvise` (the setting before the
  thp-madvise        experiment is put back at the end)
  damon-off,         DAMON's kdamond threads stopped (where root may write "off" to their
  damon-on           sysfs state), then running; put back as they were at the end
  memcpy             a bare memcpy loop (calibration/all/memory, 8 MiB) alone, pinned as cpu1

The case runs in chunks of --chunk repetitions of --min-time seconds (Google Benchmark's
JSON, one process a chunk), one after the other, until the setting's time is up. Per setting
it prints and writes: the repetitions, the fastest, the median over the fastest, the slow
share (repetitions above 1.3x the setting's fastest: the threshold of the issue's figures),
the slow share of the chunks' first and second halves (drift), the longest run of slow
repetitions in seconds, and the Wald-Wolfowitz runs test's z on the slow/fast sequence (a
large negative z: slowness comes in windows, not at random). Settings that cannot be made
(no DAMON, no root) are reported as such and skipped. The whole run takes the settings'
count x --seconds: 70 minutes by default, on a quiet machine.

Writes a JSON of every repetition and a Markdown table: --out (default
build/slow-windows-<UTC stamp>.json and .md beside it).

Example, the whole experiment:
  ./wirebench slow-windows
and a two-minute trial of two settings:
  ./wirebench slow-windows --seconds 60 --settings cpu0,cpu1
"""

import argparse
import contextlib
import datetime
import glob
import json
import math
import os
import statistics
import subprocess
import sys
import time

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.results import entry_seconds  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETTINGS = ("cpu0", "cpu1", "thp-never", "thp-madvise", "damon-off", "damon-on", "memcpy")
CASE = "^json/science/1000/decode/simdjson-dom/from:reference$"
MEMCPY = "^calibration/all/memory$"
SLOW = 1.3
THP = "/sys/kernel/mm/transparent_hugepage/enabled"
KDAMONDS = "/sys/kernel/mm/damon/admin/kdamonds/[0-9]*/state"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench slow-windows", description=__doc__.split("\n\n")[1],
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"), metavar="DIR")
    parser.add_argument("--seconds", type=float, default=600, help="per setting (default 600)")
    parser.add_argument("--settings", default=",".join(SETTINGS),
                        help=f"comma-separated, in order (default: {','.join(SETTINGS)})")
    parser.add_argument("--filter", default=CASE, help=f"the focused case (default {CASE})")
    parser.add_argument("--min-time", type=float, default=0.01, metavar="S",
                        help="seconds per repetition (default 0.01)")
    parser.add_argument("--chunk", type=int, default=200, help="repetitions per process (200)")
    parser.add_argument("--out", metavar="FILE.json")
    args = parser.parse_args(argv)
    args.settings = [s for s in args.settings.split(",") if s]
    unknown = [s for s in args.settings if s not in SETTINGS]
    if unknown:
        raise cli.UserError(f"unknown setting {unknown[0]} (known: {', '.join(SETTINGS)})")
    return args


def _read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read().strip()


def _write(path, value):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(value)


@contextlib.contextmanager
def setting(name):
    """Makes the setting for the duration; yields (cpu, filter override or None, note) or
    raises cli.UserError when the machine does not allow it."""
    if name.startswith("thp-"):
        before = _read(THP).split("[")[1].split("]")[0]
        try:
            _write(THP, name[len("thp-"):])
        except OSError as err:
            raise cli.UserError(f"cannot set {THP}: {err.strerror}") from None
        try:
            yield 1, None, f"THP {name[4:]} (was {before})"
        finally:
            _write(THP, before)
    elif name.startswith("damon-"):
        paths = sorted(glob.glob(KDAMONDS))
        if not paths:
            raise cli.UserError("no DAMON kdamond in sysfs")
        before = {p: _read(p) for p in paths}
        wanted = name[len("damon-"):]
        try:
            for path in paths:
                if _read(path) != wanted:
                    _write(path, wanted)
        except OSError as err:
            raise cli.UserError(f"cannot turn DAMON {wanted}: {err.strerror}") from None
        try:
            yield 1, None, f"DAMON {wanted} (was {', '.join(sorted(set(before.values())))})"
        finally:
            for path, state in before.items():
                with contextlib.suppress(OSError):
                    if _read(path) != state:
                        _write(path, state)
    elif name == "memcpy":
        yield 1, MEMCPY, "a bare 8 MiB memcpy loop alone"
    else:
        yield int(name[len("cpu"):]), None, f"pinned to CPU {name[3:]}"


def run_chunk(args, cpu, case):
    """[(seconds since the epoch at the chunk's end, cpu seconds)] of one process."""
    exe = os.path.join(args.build, "wirebench_bench")
    with open(os.path.join(ROOT, "tools", "heap_tunables.txt"), encoding="utf-8") as handle:
        tunables = handle.read().strip()
    command = ["taskset", "-c", str(cpu), exe, f"--benchmark_filter={case}",
               f"--benchmark_repetitions={args.chunk}", f"--benchmark_min_time={args.min_time}",
               "--benchmark_format=json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env=dict(os.environ, GLIBC_TUNABLES=tunables))
    if done.returncode != 0:
        raise cli.UserError(f"{' '.join(command)} failed:\n{done.stderr[-1500:]}")
    report = json.loads(done.stdout)
    times = [entry_seconds(e, "cpu_time") for e in report["benchmarks"]
             if e.get("run_type") == "iteration" and not e.get("error_occurred")]
    return [(time.time(), t) for t in times]


def runs_z(flags):
    """Wald-Wolfowitz runs test z of a boolean sequence (nan when one kind is missing)."""
    n1 = sum(flags)
    n2 = len(flags) - n1
    if n1 == 0 or n2 == 0:
        return math.nan
    runs = 1 + sum(a != b for a, b in zip(flags, flags[1:]))
    mean = 2 * n1 * n2 / (n1 + n2) + 1
    var = (mean - 1) * (mean - 2) / (n1 + n2 - 1)
    return (runs - mean) / math.sqrt(var) if var > 0 else math.nan


def summarise(times, repetition_s):
    """The row of one setting from its cpu times in order."""
    fastest = min(times)
    slow = [t > SLOW * fastest for t in times]
    half = len(times) // 2
    longest = current = 0
    for flag in slow:
        current = current + 1 if flag else 0
        longest = max(longest, current)
    return {"repetitions": len(times), "fastest_s": fastest,
            "median_over_fastest": statistics.median(times) / fastest,
            "slow_share": sum(slow) / len(slow),
            "slow_share_first_half": sum(slow[:half]) / max(1, half),
            "slow_share_second_half": sum(slow[half:]) / max(1, len(slow) - half),
            "longest_slow_s": longest * repetition_s, "runs_z": runs_z(slow)}


def table(rows):
    lines = ["| setting | repetitions | fastest | median / fastest | slow share (> 1.3x) | "
             "first half / second half | longest slow stretch | runs test z |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        if "skipped" in row:
            lines.append(f"| {row['setting']} | skipped: {row['skipped']} | | | | | | |")
            continue
        lines.append(
            f"| {row['setting']} ({row['note']}) | {row['repetitions']} | "
            f"{row['fastest_s'] * 1e6:.1f} us | {row['median_over_fastest']:.3f} | "
            f"{100 * row['slow_share']:.1f} % | {100 * row['slow_share_first_half']:.1f} % / "
            f"{100 * row['slow_share_second_half']:.1f} % | {row['longest_slow_s']:.1f} s | "
            f"{row['runs_z']:.1f} |")
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    if not os.access(os.path.join(args.build, "wirebench_bench"), os.X_OK):
        raise cli.UserError(f"no wirebench_bench in {args.build} (./wirebench build)")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or os.path.join(ROOT, "build", f"slow-windows-{stamp}.json")
    rows = []
    for name in args.settings:
        try:
            with setting(name) as (cpu, case, note):
                print(f"slow-windows: {name} ({note}) for {args.seconds:.0f} s", file=sys.stderr)
                samples, started = [], time.monotonic()
                while time.monotonic() - started < args.seconds:
                    samples += run_chunk(args, cpu, case or args.filter)
                times = [t for _, t in samples]
                wall = time.monotonic() - started
                rows.append({"setting": name, "note": note, "cpu": cpu,
                             "case": case or args.filter, "times_s": times,
                             **summarise(times, wall / max(1, len(times)))})
        except cli.UserError as err:
            print(f"slow-windows: {name} skipped: {err}", file=sys.stderr)
            rows.append({"setting": name, "skipped": str(err)})
    cli.write_report(out, {"date": stamp, "seconds_per_setting": args.seconds,
                           "slow_above": SLOW, "rows": rows}, table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
