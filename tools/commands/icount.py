#!/usr/bin/python3
"""wirebench icount: instruction counts per call under valgrind's callgrind (noise-free).

Runs BUILD/wirebench_bench --wirebench_icount under callgrind with collection off except inside
each benchmark's timed loop (the loop hooks of benchmarks/loop_probe.hpp toggle it and dump one
profile per loop), one iteration per repetition (--benchmark_min_time=1e-9 stops Google
Benchmark after its first single-iteration run; 1.7.1 has no fixed-iteration flag), and
writes instructions per call and per payload byte as JSON: beside --timing RESULT.json as
RESULT-icount.json, else results/<UTC stamp>-<host>-<commit>-icount.json. Setup (payload
generation, parser creation, the correctness check) is outside the window. valgrind runs
~50x slower, so the default selection is small: airport/101 decode of every parser.

--program wirebench_tls_cpu counts the TLS benchmarks of wire/tls_cpu_bench.cpp the same way:
its collection window is the measured end's calls only, so each handshake benchmark gives one
end's instructions per handshake (client or server; default selection: every handshake), and
the seal and open benchmarks instructions per byte of application data (docs/wire-tls.md).

The heap is the one `wirebench bench` times (GLIBC_TUNABLES from tools/heap_tunables.txt, or
GLIBC_TUNABLES as set in the environment), so that counts and timings describe one program:
glibc's trimming and mmap thresholds decide which paths malloc and free take inside the loop.
The tunables are recorded in the output's context.
"""

import argparse
import datetime
import glob
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_FILTERS = {"wirebench_bench": r"^[a-z]+/airport/101/decode/[^/]+/from:reference$",
                   "wirebench_tls_cpu": r"/handshake/"}


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="wirebench icount", description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"),
                        help="build directory holding wirebench_bench (default build/release)")
    parser.add_argument("--program", choices=sorted(DEFAULT_FILTERS), default="wirebench_bench",
                        help="benchmark executable in the build (default wirebench_bench)")
    parser.add_argument("--filter", metavar="REGEX",
                        help="benchmarks to count (default per program: "
                             + ", ".join(f"{k} {v!r}" for k, v in DEFAULT_FILTERS.items()) + ")")
    parser.add_argument("--repetitions", type=int, default=3,
                        help="single-iteration calls per benchmark (default 3); the median is "
                             "reported, the spread shows how repeatable a call is")
    parser.add_argument("--timing", metavar="RESULT.json",
                        help="timing result to write the counts beside (RESULT-icount.json)")
    parser.add_argument("--out", metavar="PATH", help="output path (overrides --timing)")
    args = parser.parse_args(argv)
    if args.filter is None:
        args.filter = DEFAULT_FILTERS[args.program]
    return args


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def default_out(args):
    if args.out:
        return args.out
    if args.timing:
        return cli.result_stem(args.timing) + "-icount.json"
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    kind = "" if args.program == "wirebench_bench" else "-" + args.program.removeprefix("wirebench_")
    return os.path.join(ROOT, "results",
                        f"{stamp}-{socket.gethostname().split('.')[0]}-{git('rev-parse', '--short', 'HEAD')}{kind}-icount.json")


def heap_tunables(environ=None):
    """GLIBC_TUNABLES for the counted run: the environment's if set, else the bench's file."""
    environ = os.environ if environ is None else environ
    if environ.get("GLIBC_TUNABLES"):
        return environ["GLIBC_TUNABLES"]
    with open(os.path.join(ROOT, "tools", "heap_tunables.txt"), encoding="utf-8") as handle:
        return handle.read().strip()


def dump_totals(path):
    """Instructions (Ir) collected in one callgrind dump."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    raise cli.UserError(f"{path}: no totals line (not a callgrind dump?)")


def run(args):
    exe = os.path.join(args.build, args.program)
    if not os.access(exe, os.X_OK):
        raise cli.UserError(f"no benchmark executable at {exe} (build first: ./wirebench build)")
    with tempfile.TemporaryDirectory(prefix="wb-icount-") as tmp:
        timing = os.path.join(tmp, "timing.json")
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
                   f"--callgrind-out-file={tmp}/cg.out", exe, "--wirebench_icount",
                   f"--benchmark_filter={args.filter}", "--benchmark_min_time=1e-9",
                   f"--benchmark_repetitions={args.repetitions}",
                   "--benchmark_out_format=json", f"--benchmark_out={timing}"]
        tunables = heap_tunables()
        done = subprocess.run(command, capture_output=True, text=True,
                              env={**os.environ, "GLIBC_TUNABLES": tunables})
        if done.returncode != 0:
            raise cli.UserError(f"valgrind run failed (exit {done.returncode}):\n"
                                f"{done.stderr[-2000:]}")
        # cg.out.1, cg.out.2, ... one per loop, in run order (cg.out itself: the final dump).
        dumps = sorted(glob.glob(f"{tmp}/cg.out.*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        with open(timing, encoding="utf-8") as handle:
            data = json.load(handle)
        machine = {key: data["context"][key] for key in ("host_name", "cpu_model", "kernel")
                   if key in data.get("context", {})}
        # The libraries' versions and linkage, and the seeds their adapters fix
        # (library.X.hash_seed): what the counts hold for.
        libraries = {key: value for key, value in data.get("context", {}).items()
                     if key.startswith("library.")}
        entries = [e for e in data["benchmarks"] if e.get("run_type") == "iteration"
                   and not e.get("error_occurred")]
        if len(dumps) != len(entries):
            raise cli.UserError(f"{len(dumps)} callgrind dumps for {len(entries)} benchmark runs: "
                                "cannot match them")
        by_name = {}
        for entry, dump in zip(entries, dumps):
            per_call = dump_totals(dump) / entry["iterations"]
            seconds = entry["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[
                entry["time_unit"]]
            payload = round(entry.get("bytes_per_second", 0) * seconds)
            item = by_name.setdefault(entry["run_name"], {"name": entry["run_name"],
                                                          "payload_bytes": payload,
                                                          "samples": []})
            item["samples"].append(per_call)
    benchmarks = []
    for item in by_name.values():
        samples = item["samples"]
        median = statistics.median(samples)
        item["instructions_per_call"] = median
        item["instructions_per_byte"] = median / item["payload_bytes"] if item["payload_bytes"] else None
        item["spread"] = (max(samples) - min(samples)) / median if median else 0.0
        benchmarks.append(item)
    version = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
    return {"context": {"tool": version, "git_commit": git("rev-parse", "HEAD"),
                        "executable": exe, "filter": args.filter,
                        "calls_per_benchmark": args.repetitions,
                        "glibc_tunables": tunables, **machine, **libraries,
                        "note": "instructions (callgrind Ir) inside the timed loop only, one "
                                "iteration per call; spread = (max-min)/median over the calls"},
            "benchmarks": benchmarks}


def main(argv=None):
    args = parse_args(argv)
    if args.repetitions < 1:
        raise cli.UserError("--repetitions wants a positive number")
    result = run(args)
    if not result["benchmarks"]:
        raise cli.UserError(f"no benchmark matched {args.filter!r}")
    out = default_out(args)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    os.replace(out + ".tmp", out)
    for item in result["benchmarks"]:
        per_byte = item["instructions_per_byte"]
        print(f"{item['instructions_per_call']:14,.0f} instr/call  "
              f"{per_byte if per_byte is None else round(per_byte, 2)!s:>8} instr/B  "
              f"spread {item['spread']:.3%}  {item['name']}", file=sys.stderr)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
