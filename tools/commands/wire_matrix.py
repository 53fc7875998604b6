#!/usr/bin/python3
"""wirebench wire --matrix: the transfer model against real TCP over the emulated link.

For every link profile of tools/links.json with an RTT of at least 10 ms and slow start
(wan, mobile; relay-2009 is a fitted end-to-end latency and is left out), every congestion
control (cubic, reno, bbr) and every payload, wirebench_wire times cold requests (a new
connection each) and warm ones (back to back on one kept-alive connection), and the
transfer model (tools/wbtools/transfer/tcp.py) prices the same exchange. Writes
results/<UTC stamp>-<machine>-<commit>-wire.json with the context (kernel, congestion
control, initial window, sysctls, the emulator's self-check per link) and per case the
measured median, min and max, the model and the ratio model / measured.
`./wirebench wire-table FILE` prints it as a Markdown table.

--stack S (a stack of tools/links.json's "stacks", repeatable; all: every one) measures HTTP
calls over that stack instead (wbtools/wire/stack_cases.py): plain HTTP/1.1, TLS 1.2 or 1.3,
HTTP/2 over TLS 1.3 or cleartext (h2c), gRPC over TLS 1.3. Per (profile, congestion control,
stack), message/100 and science/1000 as JSON (gRPC: the protobuf codec's messages) each
round: one run of `wirebench_wire --http SPEC` per payload whose opening call is the cold
one and whose next 4 calls are warm (pooled over the rounds), every call's rows
checked. Each case is priced per call by the stack's model (wbtools/wire/stack_check.py: the stack's transfer over the run's link
plus the handshake CPU) and holds the handshake's round trips (model; by time), bytes each
way and CPU per side. Defaults: cubic only, 3 rounds (--stack all: 72 runs, about 11
minutes on an idle machine).

The requests run in rounds (wbtools/wire/wire_measure.py): each round runs every (profile,
congestion control) once, in a fresh random order, with one cold and one warm request per
payload, so that a stall of the host costs a case one repetition, which the median leaves
out, and a case whose repetitions disagree is flagged. --in-order runs each group once with
all its repetitions back to back, as before rounds.

The default subset (message/100 and science/1000 in JSON and Atom, 3 cold + 3 warm
requests each) takes about three minutes; --full runs every payload from message/100 to
science/8100 with 5 of each (about a quarter of an hour: 8 MB at 5 Mbit/s is 13 s a
request). Needs root. Both CPUs should be quiet: before each link it waits (up to
--wait-quiet seconds) while a benchmark, a compiler or a browser runs, and records that.
"""

import argparse
import datetime
import json
import os
import platform
import random
import sys
import time

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.results import machine  # noqa: E402
from wbtools.transfer import links  # noqa: E402
from wbtools.wire import scenario_run, stack_cases, wire_cases, wire_measure, wire_model  # noqa: E402,E501
from wbtools.wire.matrix_runs import Lock, Runs, lock_context, wrap  # noqa: E402,F401

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench wire --matrix", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "release"), metavar="DIR",
                        help="build folder holding wirebench_wire (default build/release)")
    parser.add_argument("--full", action="store_true",
                        help="every payload, 5 repetitions (default: the subset, 3)")
    parser.add_argument("--profile", action="append", metavar="NAME",
                        help="only this profile (repeatable; default: every measured one)")
    parser.add_argument("--congestion", action="append", choices=wire_cases.CONGESTION,
                        help="only this congestion control (repeatable; default: all three)")
    parser.add_argument("--payload", action="append", metavar="FMT/DATASET/ROWS",
                        help="only this payload (repeatable), e.g. json/science/1000")
    parser.add_argument("--repetitions", type=int, metavar="N",
                        help="cold and warm requests per case, one a round (default 3, "
                             "--full 5)")
    parser.add_argument("--stack", action="append", metavar="STACK",
                        help="HTTP calls over this stack of tools/links.json (repeatable; all: "
                             "every stack) instead of the raw TCP transfers; the payloads are "
                             "DATASET/ROWS (default message/100 and science/1000), the "
                             "congestion control cubic unless --congestion")
    parser.add_argument("--lock", metavar="FILE",
                        help="hold an exclusive flock(2) of FILE around each run of "
                             "wirebench_wire (a machine shared with other emulated-link runs, "
                             "as `flock FILE CMD` takes it); the waits are recorded and left "
                             "out of the wall time's net figure")
    parser.add_argument("--in-order", action="store_true",
                        help="no rounds: each group once, its repetitions back to back")
    parser.add_argument("--seed", type=int,
                        help="seed of the rounds' random orders (default: random; recorded)")
    parser.add_argument("--sizes-from", metavar="RESULT.json",
                        help="result file with the payloads' wire_bytes (default: the newest "
                             "in results/ that has them all)")
    parser.add_argument("--before", metavar="REV",
                        help="also store the model of git revision REV (the old code), as "
                             "model.before beside model.after (the working tree)")
    parser.add_argument("--wait-quiet", type=float, default=180, metavar="S",
                        help="longest wait for a busy machine, over the whole run (default "
                             "180); then it measures anyway and records what ran")
    parser.add_argument("--cpus", metavar="LIST",
                        help="run wirebench_wire under taskset -c LIST (e.g. 0, beside a "
                             "benchmark pinned to CPU 1); recorded in the context")
    parser.add_argument("--merge", nargs="+", metavar="RUN-wire.json",
                        help="measure nothing: merge these -wire.json runs (e.g. one link "
                             "each) into one result; each run's context is kept in "
                             "context.runs")
    parser.add_argument("--out", metavar="FILE",
                        help="result file (default results/<stamp>-<machine>-<commit>-wire.json)")
    return parser.parse_args(argv)


def choose_profiles(args, raw_profiles):
    """(profiles measured, {profile left out: why})."""
    measured, skipped = wire_cases.measured_profiles(raw_profiles)
    profiles = measured
    if args.profile:
        unknown = [p for p in args.profile if p not in raw_profiles]
        if unknown:
            raise cli.UserError(f"unknown profile {unknown[0]} (known: {', '.join(raw_profiles)})")
        profiles = args.profile
    return profiles, skipped


def choose(args, raw_profiles):
    profiles, skipped = choose_profiles(args, raw_profiles)
    wanted = wire_cases.PAYLOADS if args.full else wire_cases.DEFAULT_PAYLOADS
    if args.payload:
        names = {"/".join(map(str, p)): p for p in wire_cases.PAYLOADS}
        unknown = [p for p in args.payload if p not in names]
        if unknown:
            raise cli.UserError(f"unknown payload {unknown[0]} (known: {', '.join(names)})")
        wanted = [names[p] for p in args.payload]
    return profiles, skipped, wanted


def merge(paths):
    """One result of several runs: their groups and cases in order, each context kept."""
    runs = [cli.read_json(path, "wire result") for path in paths]
    for path, run in zip(paths, runs):
        if not isinstance(run, dict) or run.get("type") != "wirebench-wire":
            raise cli.UserError(f"{path}: not a -wire.json of ./wirebench wire --matrix")
    first = runs[0]["context"]
    context = {key: first[key] for key in ("date", "git_commit", "cpu_model", "kernel", "host",
                                           "sizes_from", "measured_exchange",
                                           "profiles_left_out", "ratio")}
    context.update({
        "command": ["wirebench", "wire", "--matrix", "--merge", *paths],
        "subset": "/".join(dict.fromkeys(r["context"]["subset"] for r in runs)),
        "repetitions": max(r["context"]["repetitions"] for r in runs),
        "wall_s": sum(r["context"]["wall_s"] for r in runs),
        "quiet_waits": [w for r in runs for w in r["context"]["quiet_waits"]],
        "runs": [r["context"] for r in runs],
    })
    return {"type": "wirebench-wire", "context": context,
            "groups": [g for r in runs for g in r["groups"]],
            "cases": [c for r in runs for c in r["cases"]],
            **({"calls": [c for r in runs for c in r.get("calls", [])]}
               if any("calls" in r for r in runs) else {})}


def write(result, out):
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
        handle.write("\n")
    os.replace(tmp, out)


def stack_options(args):
    """Refuse the options that have no meaning over a stack; (payloads, repetitions)."""
    for flag, given in (("--full", args.full), ("--in-order", args.in_order),
                        ("--before", args.before), ("--sizes-from", args.sizes_from)):
        if given:
            raise cli.UserError(f"{flag} goes with the raw TCP matrix, not with --stack (its "
                                "payloads are sized by the calls, its model is the working "
                                "tree's)")
    repetitions = 3 if args.repetitions is None else args.repetitions
    if repetitions < 1:
        raise cli.UserError("--repetitions must be at least 1")
    payloads = [stack_cases.parse_payload(p) for p in args.payload] if args.payload \
        else list(stack_cases.DEFAULT_PAYLOADS)
    return list(dict.fromkeys(payloads)), repetitions


def run_stacks(args, argv, binary):
    """The matrix over stacks (--stack): every (profile, congestion control, stack, payload)
    once a round, in a fresh random order; writes the result and prints its path."""
    payloads, repetitions = stack_options(args)
    raw = cli.read_json(os.path.join(ROOT, "tools", "links.json"), "link profiles")
    stacks = stack_cases.choose_stacks(args.stack, list(links.load_stacks()))
    profiles, skipped = choose_profiles(args, raw["profiles"])
    congestions = args.congestion or ["cubic"]
    if not os.access(binary, os.X_OK):
        raise cli.UserError(f"{binary}: no wirebench_wire (build it, or give --build DIR)")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    cpu_model = machine.local_cpu_model()
    commit = scenario_run.git_commit(ROOT)[1]
    out = args.out or os.path.join(
        ROOT, "results", f"{stamp}-{machine.slug(cpu_model)}-{commit}-wire.json")
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    units = [(p, c, s, load) for p in profiles for c in congestions for s in stacks
             for load in payloads]
    runs = wire_measure.plan(units, repetitions, seed)
    groups, calls = {}, []
    state = Runs(args, len(runs), repetitions)
    done_runs = 0

    def result(done):
        """The result file of the calls so far (done: every run has run), written after each
        run, so that a run cut short keeps what it measured."""
        cases = []
        for (profile, congestion, stack) in groups:
            mine = [c for c in calls if (c["profile"], c["congestion"], c["stack"])
                    == (profile, congestion, stack)]
            gone = [x["round"] for x in state.lost
                    if (x["profile"], x["congestion"], x["stack"]) == (profile, congestion, stack)]
            cases += [{"profile": profile, "congestion": congestion, **case, "rounds_left_out": gone}
                      for case in stack_cases.summarise(mine)]
        flagged = [c for c in cases if c["disagreeing_rounds"]]
        for case in flagged if done else ():
            print(f"wire: {case['profile']} {case['congestion']} {case['stack']} {case['payload']} "
                  f"{case['connection']}: repetitions disagree (round(s) "
                  f"{', '.join(str(r + 1) for r in case['disagreeing_rounds'])} more than "
                  f"{wire_measure.DISAGREE:.0%} from the median {case['median_ms']:.1f} ms)",
                  file=sys.stderr)
        wall = time.monotonic() - state.started
        return {
            "type": "wirebench-wire",
            "context": {
                "date": stamp, "git_commit": commit, "cpu_model": cpu_model,
                "kernel": platform.release(), "host": platform.node(),
                "command": ["wirebench", "wire", "--matrix", *argv], "subset": "stacks",
                "stacks": stacks, "payloads": [f"{d}/{r}" for d, r in payloads],
                "repetitions": repetitions, "wall_s": round(wall, 1), "order": "rounds",
                "round_order_seed": seed, "disagree": wire_measure.DISAGREE,
                "cases_disagreeing": len(flagged), "sizes_from": None,
                "measured_exchange": {s: wire_model.measured_exchange(s) for s in stacks},
                "cpu_affinity": args.cpus or "all", **lock_context(args, state.lock, wall),
                "profiles_left_out": skipped, "quiet_waits": state.waits,
                "rounds_left_out": state.lost,
                "ratio": "model / measured median",
                "runs_planned": len(runs), "runs_done": done_runs,
                "calls": "cold: the call that opens a run's kept-alive connection (from connect() "
                         "or the channel's creation); warm: the next "
                         f"{stack_cases.WARM_CALLS} (from the request's send), pooled over the "
                         "rounds; measured: the last byte less the server's encode and compress",
            },
            "groups": list(groups.values()),
            "cases": cases,
            "calls": calls,
        }

    for round_index, (profile, congestion, stack, load) in runs:
        cmd = wrap(stack_cases.command(binary, raw["profiles"][profile], congestion, stack,
                                       load, stack_cases.WARM_CALLS), args)
        done = state.run(cmd, f"{profile} {congestion} {stack} {load[0]}/{load[1]}",
                         round_index, f"1 cold + {stack_cases.WARM_CALLS} warm calls",
                         {"profile": profile, "congestion": congestion, "stack": stack,
                          "payload": f"{load[0]}/{load[1]}"})
        if done is None:
            continue
        context, check, _, attempts, lines = done
        calls += [dict(c, profile=profile, congestion=congestion)
                  for c in stack_cases.calls(lines, round_index, " ".join(cmd))]
        group = groups.setdefault((profile, congestion, stack), {
            "profile": profile, "congestion": congestion, "stack": stack,
            "command": cmd[cmd.index(binary) + 1:], "self_check_attempts": attempts,
            "link": context["link"],
            "server_congestion_in_use": context.get("server_congestion_in_use")
            or context["link"].get("congestion_control"),
            "self_check": check, "self_checks": []})
        group["self_checks"].append({"round": round_index, "payload": f"{load[0]}/{load[1]}",
                                     "attempts": attempts, **check})
        done_runs += 1
        write(result(False), out)
    final = result(True)
    write(final, out)
    print(f"wire: {len(final['cases'])} cases in {final['context']['wall_s']:.0f} s" + (
        f" ({state.lock.waited_s:.0f} s of them waiting for {args.lock})" if args.lock else ""),
        file=sys.stderr)
    print(os.path.relpath(out))
    return 0


def main(argv):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.merge:
        result = merge(args.merge)
        ctx = result["context"]
        out = args.out or os.path.join(ROOT, "results", f"{ctx['date']}-"
                                       f"{machine.slug(ctx['cpu_model'])}-{ctx['git_commit']}"
                                       "-wire.json")
        write(result, out)
        print(os.path.relpath(out))
        return 0
    binary = os.path.join(args.build, "wirebench_wire")
    if args.stack:
        return run_stacks(args, argv, binary)
    if not os.access(binary, os.X_OK):
        raise cli.UserError(f"{binary}: no wirebench_wire (build it, or give --build DIR)")
    repetitions = args.repetitions or (5 if args.full else 3)
    if repetitions < 1:
        raise cli.UserError("--repetitions must be at least 1")
    raw_profiles = cli.read_json(os.path.join(ROOT, "tools", "links.json"),
                                 "link profiles")["profiles"]
    profiles, skipped, wanted = choose(args, raw_profiles)
    if args.sizes_from:
        sizes_from, payloads = args.sizes_from, wire_cases.payload_sizes(args.sizes_from, wanted)
    else:
        sizes_from, payloads = wire_cases.sizes_from_folder(os.path.join(ROOT, "results"), wanted)
    congestions = args.congestion or list(wire_cases.CONGESTION)
    before = wire_model.at_revision(args.before) if args.before else None

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    cpu_model = machine.local_cpu_model()
    commit = scenario_run.git_commit(ROOT)[1]
    out = args.out or os.path.join(
        ROOT, "results", f"{stamp}-{machine.slug(cpu_model)}-{commit}-wire.json")
    groups, cases = [], []
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    pairs = [(p, c) for p in profiles for c in congestions]
    rounds, per_run = (1, repetitions) if args.in_order else (repetitions, 1)
    runs = wire_measure.plan(pairs, rounds, None if args.in_order else seed)
    if args.in_order:
        runs = [(0, pair) for pair in pairs]
    requests_of = {pair: [] for pair in pairs}
    state = Runs(args, len(runs), rounds)
    for round_index, (profile, congestion) in runs:
        cmd = wire_measure.command(binary, raw_profiles[profile], congestion,
                                   [p.bytes for p in payloads], per_run)
        cmd = wrap(cmd, args)
        done = state.run(cmd, f"{profile} {congestion}", round_index,
                         f"{len(payloads)} payloads x ({per_run} cold + {per_run} warm)",
                         {"profile": profile, "congestion": congestion})
        if done is None:
            continue
        context, check, requests, attempts, _ = done
        requests_of[(profile, congestion)] += [dict(r, round=round_index) for r in requests]
        group = next((g for g in groups if (g["profile"], g["congestion"]) == (profile, congestion)),
                     None)
        if group is None:
            group = {"profile": profile, "congestion": congestion,
                     "command": cmd[cmd.index(binary) + 1:],
                     "self_check_attempts": attempts, "link": context["link"],
                     "server_congestion_in_use": context.get("server_congestion_in_use"),
                     "self_check": check, "self_checks": []}
            groups.append(group)
        group["self_checks"].append({"round": round_index, "attempts": attempts, **check})
    for profile, congestion in pairs:
        gone = [x["round"] for x in state.lost
                if (x["profile"], x["congestion"]) == (profile, congestion)]
        for case in wire_measure.summarise(requests_of[(profile, congestion)], payloads):
            cases.append({"profile": profile, "congestion": congestion, **case,
                          "rounds_left_out": gone})
    for profile, congestion in pairs:
        if not requests_of[(profile, congestion)]:
            print(f"wire: {profile} {congestion}: no round passed its self-check, no case "
                  "measured", file=sys.stderr)
    flagged = [c for c in cases if c["disagreeing_rounds"]]
    for case in flagged:
        print(f"wire: {case['profile']} {case['payload']} {case['congestion']} "
              f"{case['connection']}: repetitions disagree (round(s) "
              f"{', '.join(str(r + 1) for r in case['disagreeing_rounds'])} more than "
              f"{wire_measure.DISAGREE:.0%} from the median {case['median_ms']:.1f} ms: "
              f"{case['measured_ms']})", file=sys.stderr)
    wire_model.annotate(cases, wire_model.current(), "after" if before else "model")
    if before:
        wire_model.annotate(cases, before, "before")
    wall = time.monotonic() - state.started
    result = {
        "type": "wirebench-wire",
        "context": {
            "date": stamp, "git_commit": commit, "cpu_model": cpu_model,
            "kernel": platform.release(), "host": platform.node(),
            "command": ["wirebench", "wire", "--matrix", *argv],
            "subset": "full" if args.full else ("default" if not (args.payload or args.profile
                                                                  or args.congestion)
                                                else "chosen"),
            "repetitions": repetitions, "wall_s": round(wall, 1),
            "order": "in order" if args.in_order else "rounds", "round_order_seed": seed,
            "disagree": wire_measure.DISAGREE, "cases_disagreeing": len(flagged),
            "sizes_from": os.path.relpath(sizes_from, ROOT),
            "measured_exchange": wire_model.MEASURED_EXCHANGE,
            "cpu_affinity": args.cpus or "all", "profiles_left_out": skipped,
            "quiet_waits": state.waits, "rounds_left_out": state.lost,
            **lock_context(args, state.lock, wall),
            "ratio": "model / measured median",
        },
        "groups": groups,
        "cases": cases,
    }
    write(result, out)
    print(f"wire: {len(cases)} cases in {wall:.0f} s", file=sys.stderr)
    print(os.path.relpath(out))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
