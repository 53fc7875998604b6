"""Running wirebench_wire for the matrix and summarising its JSON lines into cases.

One wirebench_wire process per (profile, congestion control) builds the link once, runs
its self-check and then, for every payload size in turn, the cold series (each request on
a new connection) and the warm series (one kept-alive connection: an opening request, then
back-to-back requests, which Linux serves with the window the previous one left).

The matrix runs in rounds (plan): each round runs every group once, in a fresh random order,
with one cold and one warm request per payload, so that a case's repetitions lie minutes
apart and a stall of the host of a few seconds costs one repetition, not a case. A case
whose repetitions disagree (one more than DISAGREE from the case's median) is flagged with
the rounds that disagree.
"""

import json
import random
import statistics
import subprocess
import sys
import time

from ..cli import UserError

# A self-check that fails (the host delayed the forwarder) is tried again this many times.
CHECK_ATTEMPTS = 3


class SelfCheckFailed(UserError):
    """Every attempt at a group's self-check failed: the host was too busy to emulate the
    link then. The matrix loses that round of that group, not the run."""
EXIT_NO_PRIVILEGES = 2


# A repetition this far from its case's median (a fraction) marks the case: the link's own
# spread is well under 1 % (docs/wire.md), a stall of the host adds tens of percent.
DISAGREE = 0.10


def plan(groups, rounds, seed=None):
    """[(round, group)] in the order they run: every group once a round, each round in a
    fresh random order."""
    order = random.Random(seed)
    runs = []
    for index in range(rounds):
        shuffled = list(groups)
        order.shuffle(shuffled)
        runs += [(index, group) for group in shuffled]
    return runs


def disagreeing(ms, rounds):
    """The rounds whose time lies more than DISAGREE from the median of the case's times."""
    median = statistics.median(ms)
    return [r for value, r in zip(ms, rounds) if abs(value - median) > DISAGREE * median]


def command(binary, profile, congestion, sizes, repetitions):
    """The wirebench_wire command line of one group."""
    return [binary, "--rate-mbps", f"{profile['bandwidth_mbps']:g}",
            "--rtt-ms", f"{profile['rtt_ms']:g}", "--congestion", congestion,
            "--transfer", ",".join(str(s) for s in sizes),
            "--cold", str(repetitions), "--warm", str(repetitions)]


def parse_lines(text):
    """(context, check, [request]) of wirebench_wire's stdout."""
    context, check, requests = None, None, []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            raise UserError(f"wirebench_wire printed a line that is not JSON: {line[:120]}")
        kind = item.get("type")
        if kind == "context":
            context = item
        elif kind == "check":
            check = item["result"]
        elif kind == "request":
            requests.append(item)
    return context, check, requests


def run_group(cmd, log=sys.stderr):
    """Run one group; (context, check, requests, attempts, stdout's lines). Retries a failed
    self-check."""
    for attempt in range(1, CHECK_ATTEMPTS + 1):
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              check=False)
        if proc.returncode == 0:
            context, check, requests = parse_lines(proc.stdout)
            if context is None or check is None:
                raise UserError(f"{' '.join(cmd)}: no context or check line in its output")
            return context, check, requests, attempt, proc.stdout.splitlines()
        if proc.returncode == EXIT_NO_PRIVILEGES:
            raise UserError(f"wirebench_wire cannot build a link: {proc.stderr.strip()}")
        failure = proc.stderr.strip().splitlines()
        print(f"wire: attempt {attempt} failed: {failure[-1] if failure else proc.returncode}",
              file=log)
        if "self-check failed" not in proc.stderr:
            raise UserError(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n"
                            + proc.stderr.strip()[-2000:])
        if attempt == CHECK_ATTEMPTS:
            raise SelfCheckFailed(failure[-1] if failure else f"exit {proc.returncode}")
        time.sleep(10)
    raise AssertionError("unreachable")


def summarise(requests, payloads):
    """Cases of one group: per payload, cold and warm, the last-byte times in ms.

    cold: every request of the cold series (from the connect() call, so the TCP handshake
    is in it); warm: the kept-alive connection's requests after its opening one (from the
    request's send).
    """
    by_size = {p.bytes: p for p in payloads}
    samples = {}
    for r in requests:
        payload = by_size.get(r["bytes"])
        if payload is None:
            continue
        if r["series"] == "cold":
            connection = "cold"
        elif r["series"] == "warm" and r["connection"] == "warm":
            connection = "warm"
        else:
            continue  # the warm series' opening request: a cold one after no pause
        entry = samples.setdefault((payload.name, connection),
                                   {"ms": [], "first_byte_ms": [], "link_drops": 0, "rounds": []})
        entry["ms"].append(r["last_byte_ms"])
        entry["rounds"].append(r.get("round", 0))
        entry["first_byte_ms"].append(r["first_byte_ms"])
        entry["link_drops"] += r["link_drops"]
    cases = []
    for payload in payloads:
        for connection in ("cold", "warm"):
            entry = samples.get((payload.name, connection))
            if not entry:
                continue
            ms = entry["ms"]
            cases.append({
                "payload": payload.name, "bytes": payload.bytes, "connection": connection,
                "repetitions": len(ms), "measured_ms": ms,
                "median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms),
                "first_byte_median_ms": statistics.median(entry["first_byte_ms"]),
                "link_drops": entry["link_drops"], "rounds": entry["rounds"],
                "disagreeing_rounds": disagreeing(ms, entry["rounds"]),
            })
    return cases
