#!/usr/bin/python3
"""wirebench ab: two builds of wirebench_bench timed in turn on the same benchmarks.

OLD and NEW are each a wirebench_bench executable, a build directory holding one, or a git
revision of this repository, which is built once (Release preset, target wirebench_bench)
in a worktree under build/ab/<commit>/ and reused by later calls. NEW defaults to the
current build (build/release, brought up to date first). Both run pinned to one CPU with the
heap tunables `wirebench bench` uses, in alternation over --rounds rounds (old, new, then
new, old, ...): the machine's drift over minutes touches both alike. Prints, per benchmark,
both medians, the median of the per-round ratios new/old with its 95 % interval (the sign
test's; 6 rounds or more) and their range, the two-sided Mann-Whitney U-test over the two
samples (p below 0.05 marked *), and a call: slower or faster when the interval excludes 1
and the change is at least --min-change. Progress goes to stderr.

Example, the cost of the last commit on a path:
  ./wirebench ab HEAD~1 --filter '^json/science/8100/decode/simdjson-ondemand/from:reference$'
"""

import argparse
import os
import subprocess
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools.compare import ab  # noqa: E402
from wbtools import cli  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXECUTABLE = "wirebench_bench"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench ab", description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", metavar="OLD", help="baseline: executable, build directory or git revision")
    parser.add_argument("new", metavar="NEW", nargs="?",
                        help="the build to judge (default: the current build, --current)")
    parser.add_argument("--current", default=os.path.join(ROOT, "build", "release"),
                        help=argparse.SUPPRESS)  # set by ./wirebench after its build
    parser.add_argument("--filter", required=True, metavar="REGEX",
                        help="benchmarks to time (--benchmark_filter); keep it small: every "
                             "round runs each of them once per binary")
    parser.add_argument("--rounds", type=int, default=6,
                        help="rounds; each runs both binaries once (default 6)")
    parser.add_argument("--min-time", type=float, default=0.2, metavar="S",
                        help="--benchmark_min_time per benchmark and run (default 0.2 s)")
    parser.add_argument("--cpu", type=int, default=os.cpu_count() - 1,
                        help="CPU to pin to (default: the last one, as `wirebench bench`)")
    parser.add_argument("--min-change", type=float, default=ab.MIN_CHANGE, metavar="F",
                        help="smallest change called slower or faster, as a fraction "
                             f"(default {ab.MIN_CHANGE:g})")
    parser.add_argument("--no-fastbins", action="store_true",
                        help="add glibc.malloc.mxfast=0 to the heap tunables (as `wirebench bench`)")
    return parser.parse_args(argv)


def git(*args):
    done = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise cli.UserError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def build_commit(commit):
    """wirebench_bench built from commit, in a worktree kept under build/ab/<commit>/."""
    tree = os.path.join(ROOT, "build", "ab", commit)
    executable = os.path.join(tree, "build", "release", EXECUTABLE)
    if os.access(executable, os.X_OK):
        return executable, commit[:7]
    if not os.path.isdir(tree):
        print(f"wirebench ab: checking out {commit[:7]} into {tree}", file=sys.stderr)
        git("worktree", "add", "--detach", "--force", tree, commit)
    print(f"wirebench ab: building {commit[:7]} (Release, {EXECUTABLE})", file=sys.stderr)
    for command in (["cmake", "--preset", "release", "-S", tree],
                    ["cmake", "--build", os.path.join(tree, "build", "release"), "-j",
                     str(os.cpu_count()), "--target", EXECUTABLE]):
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              check=False)
        if done.returncode != 0:
            raise cli.UserError(f"building {commit[:7]} failed:\n{done.stderr[-2000:]}")
    return executable, commit[:7]


def resolve(spec):
    """(executable, label) for an executable, a build directory or a git revision."""
    if os.path.isdir(spec):
        spec = os.path.join(spec, EXECUTABLE)
    if os.path.isfile(spec):
        if not os.access(spec, os.X_OK):
            raise cli.UserError(f"{spec}: not executable")
        return os.path.abspath(spec), spec
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
    except cli.UserError:
        raise cli.UserError(f"{spec}: neither an executable, a build directory with "
                            f"{EXECUTABLE}, nor a git revision") from None
    return build_commit(commit)


def main(argv=None):
    args = parse_args(argv)
    if args.rounds < 1:
        raise cli.UserError("--rounds wants a positive number")
    sides = {"old": resolve(args.old), "new": resolve(args.new or args.current)}
    if args.new is None:
        changed = git("status", "--porcelain", "--untracked-files=no")
        sides["new"] = (sides["new"][0], f"current build ({git('rev-parse', '--short', 'HEAD')}"
                                         f"{' with uncommitted changes' if changed else ''})")
    with open(os.path.join(ROOT, "tools", "heap_tunables.txt"), encoding="utf-8") as handle:
        tunables = handle.read().strip()
    if args.no_fastbins:
        tunables += ":glibc.malloc.mxfast=0"
    timed = {"old": [None] * args.rounds, "new": [None] * args.rounds}
    for side, i in ab.order(args.rounds):
        executable, label = sides[side]
        print(f"wirebench ab: round {i + 1}/{args.rounds}, {side} ({label})", file=sys.stderr)
        timed[side][i] = ab.run_once(executable, args.filter, args.min_time, args.cpu, tunables, label)
    rows, partial = ab.summarize(timed["old"], timed["new"], args.min_change)
    print(f"old: {sides['old'][1]}  new: {sides['new'][1]}  rounds: {args.rounds}, CPU {args.cpu}, "
          f"min time {args.min_time} s, cpu_time")
    print()
    print(ab.table(rows))
    if partial:
        print()
        print("Not timed in every run of both (left out): " + ", ".join(partial))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
