"""Many connections at once: tcp.py's transfer model with a shared link and a server CPU queue.

tcp.transfer() prices one response on one connection. With N clients at once (the `poc`
scenario of wirebench_wire: 100 clients, each on its own kept-alive connection, calling as
fast as its calls return) two resources are shared, and this module simulates both, event
by event:
- The link, in one of two disciplines. "share": the responses on the wire at a moment
  share its rate equally (processor sharing, as fair TCP flows do on average). "fifo": whole
  responses in the order they reach the link, each at the full rate, as a drop-tail queue
  serves responses that each leave the server as one burst (one that fits the congestion
  window: a warm connection's, or any under the initial window). No loss in either.
  Each call still pays its own round trips: the TCP handshake and the 401 challenge of a
  connection's first call, the request's RTT and slow start, with the stalls slow start
  would have at the rate one connection gets when all N share the link (at a small share
  the pipe is full from the first window: no stall).
- The server's CPU: each request's encode waits for one of `cores` CPUs, first come first
  served.
A call is: half an RTT and its setup round trips (the request reaches the server), the
encode on the CPU queue, the response's IP bytes on the shared link, half an RTT and its
slow-start stalls, then the client's decode (the client's own CPU: not queued).

Run as `tools/commands/bench_step.py wire-concurrency POC.jsonl`: it reads the JSON lines
of `wirebench_wire --scenario poc` and prints the model beside every series measured.
"""

import argparse
import heapq
import json
import math
import statistics

from ..transfer import links, tcp
from ..cli import UserError

DISCIPLINES = ("share", "fifo")
# Two events closer than this (seconds) happen together: guards the fluid link's float sums.
_EPS = 1e-9


def measured_link(rate_mbps, rtt_ms, congestion="cubic"):
    """A link of that rate and RTT as the measured exchange runs it: real TCP (slow start,
    IP and TCP headers per packet), plain HTTP (no TLS), TCP_NODELAY."""
    return links.make_link("measured", {"bandwidth_mbps": rate_mbps, "rtt_ms": rtt_ms,
                                        "tls_handshake_rtts": 0, "nagle": "off",
                                        "congestion": congestion})


def with_challenge(link, challenge):
    """link with its 401 challenge on or off (a connection's first call has it)."""
    fields = dict(link.__dict__)
    fields["auth_challenge"] = challenge
    return links.Link(**fields)


def call_latency(nbytes, link, connection, challenge, share_bps):
    """(seconds before the server has the request, seconds after the response's bytes) of
    one call: setup round trips and half the request's RTT; the other half, slow-start
    stalls at share_bps and the delayed-ACK stall."""
    parts = tcp.transfer(nbytes, with_challenge(link, challenge), bandwidth_bps=share_bps,
                         connection=connection)
    before = parts["setup"] + link.rtt_s / 2
    after = parts["rounds"] - link.rtt_s / 2 + parts["stall"]
    return before, after


def simulate(clients, calls, link, nbytes, encode_s, decode_s, cores=2,
             deadline_s=math.inf, discipline="share"):
    """Simulate clients clients each making calls in order; returns one dict per call made.

    calls: a list of (connection, challenge) per call, e.g. [("cold", True)] + [("warm",
    False)] * 10. A call that would start after deadline_s is not made. Every call moves
    nbytes of payload, costs encode_s on one of cores server CPUs and decode_s on its
    client; the link serves them by discipline ("share" or "fifo", see the module doc).
    Each dict: client, call, start, end, seconds.
    """
    if clients < 1 or cores < 1:
        raise ValueError("clients and cores must be at least 1")
    if discipline not in DISCIPLINES:
        raise ValueError(f"discipline must be one of {', '.join(DISCIPLINES)}")
    rate = link.bandwidth_bps / 8  # bytes per second of IP packets
    wire = tcp.wire_bytes(nbytes, link.mss_bytes, link.header_bytes)
    latency = {spec: call_latency(nbytes, link, spec[0], spec[1], link.bandwidth_bps / clients)
               for spec in set(calls)}
    timers = []  # (time, order, client, phase): phases that end at a known time
    order = 0
    cpu_queue, cpu_busy = [], 0
    on_wire = {}  # client -> bytes left, in the order the responses reached the link
    current = {}  # client -> (call index, start)
    made = []

    def start(client, index, now):
        nonlocal order
        if index >= len(calls) or now > deadline_s + _EPS:
            return
        current[client] = (index, now)
        order += 1
        heapq.heappush(timers, (now + latency[calls[index]][0], order, client, "request"))

    def dispatch(now):
        nonlocal cpu_busy, order
        while cpu_busy < cores and cpu_queue:
            client = cpu_queue.pop(0)
            cpu_busy += 1
            order += 1
            heapq.heappush(timers, (now + encode_s, order, client, "encoded"))

    for client in range(clients):
        start(client, 0, 0.0)
    now = 0.0
    while timers or on_wire:
        next_timer = timers[0][0] if timers else math.inf
        # The responses being served now, each at rate / len(serving).
        serving = list(on_wire)[:1] if discipline == "fifo" else list(on_wire)
        next_wire = (now + min(on_wire[c] for c in serving) * len(serving) / rate
                     if serving else math.inf)
        step_to = min(next_timer, next_wire)
        for client in serving:
            on_wire[client] -= (step_to - now) * rate / len(serving)
        now = step_to
        for client in [c for c, left in on_wire.items() if left <= _EPS * rate]:
            del on_wire[client]
            index, _ = current[client]
            order += 1
            heapq.heappush(timers, (now + latency[calls[index]][1] + decode_s, order, client,
                                    "done"))
        while timers and timers[0][0] <= now + _EPS:
            _, _, client, phase = heapq.heappop(timers)
            if phase == "request":
                cpu_queue.append(client)
            elif phase == "encoded":
                cpu_busy -= 1
                on_wire[client] = wire
            else:
                index, began = current.pop(client)
                made.append({"client": client, "call": index, "start": began, "end": now,
                             "seconds": now - began})
                start(client, index + 1, now)
        dispatch(now)
    return made


def distribution(seconds):
    """{"count", "median", "p95", "max"}: the median of the middle two for an even count,
    p95 by nearest rank (the ceil(0.95 n)-th smallest), as wirebench_wire reports them."""
    if not seconds:
        return {"count": 0, "median": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(seconds)
    rank = max(1, math.ceil(0.95 * len(ordered)))
    return {"count": len(ordered), "median": statistics.median(ordered),
            "p95": ordered[rank - 1], "max": ordered[-1]}


def poc_calls(warm_calls):
    """The calls of one poc client: the first with its connect and 401, then the warm ones."""
    return [("cold", True)] + [("warm", False)] * warm_calls


def read_lines(path):
    """The JSON lines of a scenario run: wirebench_wire's output (non-JSON lines, e.g.
    progress, are skipped), or the file `./wirebench wire --scenario` saves, whose lists hold
    the same lines."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as err:
        raise UserError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        saved = json.loads(text)
    except json.JSONDecodeError:
        saved = None
    if isinstance(saved, dict) and saved.get("type") == "wirebench-scenario":
        return ([dict(saved.get("context", {}), type="context")] + saved.get("checks", [])
                + saved.get("results", [])
                + saved.get("requests", []) + saved.get("other", []))
    lines = []
    for raw in text.splitlines():
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError:
            continue
    return lines


def compare(lines, cores=2):
    """Model beside measurement for every poc series of a run's lines; one dict per series."""
    context = next((line for line in lines if line.get("type") == "context"), None)
    if context is None:
        raise UserError("no context line: not the output of wirebench_wire --scenario")
    ctx = context["link"]
    link = measured_link(ctx["rate_mbps"], ctx["rtt_ms"], ctx.get("congestion_control", "cubic"))
    calls = [line for line in lines if line.get("type") == "http_request"]
    rows = []
    for result in (line for line in lines if line.get("type") == "scenario_result"):
        series = result["series"]
        mine = [c for c in calls if c["series"] == series and c["error"] is None]
        if not mine:
            continue
        encode_s = statistics.median(c["server_encode_ms"] for c in mine) / 1e3
        decode_s = statistics.median(c["decode_ms"] for c in mine) / 1e3
        nbytes = result["body_bytes"]
        if "clients" in result:
            timeout_ms = result["timeout_s"] * 1e3
            models = {}
            for discipline in DISCIPLINES:
                made = simulate(result["clients"], poc_calls(result["calls_per_client"] - 1),
                                link, nbytes, encode_s, decode_s, cores,
                                result["start_deadline_s"], discipline)
                model = distribution([m["seconds"] * 1e3 for m in made])
                models[discipline] = {
                    "median": model["median"], "p95": model["p95"], "max": model["max"],
                    "calls": len(made),
                    "past_timeout": sum(m["seconds"] * 1e3 > timeout_ms for m in made)}
            rows.append({
                "series": series, "calls": result["calls"],
                "measured": {"median": result["median_ms"], "p95": result["p95_ms"],
                             "max": result["max_ms"], "past_timeout": result["past_timeout"],
                             "failed": result["failed"]},
                "models": models})
        else:
            first = [c for c in mine if c["attempts"] == 2 or c["connection"] == "new"]
            warm = [c for c in mine if c not in first]
            model = {}
            for name, sample, spec in (("first", first, ("cold", True)),
                                       ("warm", warm, ("warm", False))):
                if sample:
                    parts = tcp.transfer(nbytes, with_challenge(link, spec[1]),
                                         connection=spec[0])
                    model[name] = (parts["total"] + encode_s + decode_s) * 1e3
            rows.append({
                "series": series, "calls": len(mine),
                "measured": {"first": first[0]["total_ms"] if first else None,
                             "warm": statistics.median(c["total_ms"] for c in warm)
                             if warm else None},
                # One connection: nothing shared, both disciplines are tcp.py's model.
                "models": {discipline: model for discipline in DISCIPLINES}})
    return rows


def _ms(value):
    return "-" if value is None else f"{value:,.0f}"


def _ratio(model, measured):
    return "-" if not model or not measured else f"{model / measured:.2f}"


def table(rows):
    """The comparison as Markdown: one row per figure, each discipline's model beside it."""
    out = ["| series | figure | measured | " + " | ".join(
        f"model: {d} | {d} / measured" for d in DISCIPLINES) + " |",
           "| --- | --- | ---: |" + " ---: | ---: |" * len(DISCIPLINES)]
    for row in rows:
        measured, models = row["measured"], row["models"]
        concurrent = "past_timeout" in measured
        for figure in ("median", "p95", "max") if concurrent else ("first", "warm"):
            cells = [f"{_ms(models[d].get(figure))} | "
                     f"{_ratio(models[d].get(figure), measured.get(figure))}"
                     for d in DISCIPLINES]
            out.append(f"| {row['series']} | {figure} ms | {_ms(measured.get(figure))} | "
                       + " | ".join(cells) + " |")
        if concurrent:
            cells = [f"{models[d]['past_timeout']} of {models[d]['calls']} | " for d in DISCIPLINES]
            out.append(f"| {row['series']} | calls past the timeout | "
                       f"{measured['past_timeout']} of {row['calls']} "
                       f"(+ {measured['failed']} failed) | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="bench_step.py wire-concurrency",
        description="The concurrency model beside a poc run of wirebench_wire.")
    parser.add_argument("run", metavar="POC.jsonl", help="stdout of wirebench_wire --scenario poc")
    parser.add_argument("--cores", type=int, default=2, help="server CPUs (default 2)")
    parser.add_argument("--json", action="store_true", help="the rows as JSON")
    args = parser.parse_args(argv)
    rows = compare(read_lines(args.run), args.cores)
    if not rows:
        raise UserError(f"{args.run}: no poc series in it")
    print(json.dumps(rows, indent=1) if args.json else table(rows))
    return 0

