"""The TLS handshake's round trips, measured against the model's, per stack.

Reads the JSON lines of `wirebench_wire --http SPEC --tls 1.3|1.2` runs (docs/wire-tls.md):
every request that opened a TLS connection carries a "tls" object, the run's "context"
line its link (RTT, initial window) and its "http_context" line its chain, key, cipher and
padding. Per link, stack, chain, key, cipher and resumption: the calls, the median round
trips counted from flights and by time (handshake ms / the link's RTT) and the median first
flight; the model's tls_handshake_rtts of the stack (links.json's "stacks", as
wire_model.measured_exchange gives it to a measured case) agrees when it equals the round
trips by time, rounded, with one more per slow-start window the group's first flight overflows
(transfer/stacks.py). A resumed group, and one whose request went as 0-RTT early data, is
shown, not judged.
"""

import statistics
from dataclasses import replace

from ..transfer import links
from ..transfer import stacks as transfer_stacks
from . import stack_check, wire_model


def tls_calls(lines):
    """The http_request objects of lines (text) that opened a TLS connection, each with the
    TLS settings and the link of the run it belongs to under "run_tls" and "run_link"."""
    return [call for call in stack_check.requests(lines)
            if isinstance(call.get("tls"), dict) and call["tls"].get("done")]


def _overflow(stack, flight_bytes, initcwnd, stacks):
    """The round trips the model adds for a first flight of flight_bytes against the run's
    initial window ("kernel default (10)" or a number of segments)."""
    spec = (stacks if stacks is not None else links.load_stacks()).get(stack)
    if spec is None or spec.tls is None:
        return 0
    digits = "".join(ch for ch in str(initcwnd) if ch.isdigit())
    tls = replace(spec.tls, server_first_flight_bytes=int(flight_bytes))
    return transfer_stacks.overflow_rtts(transfer_stacks.first_flight_segments(tls, 1448),
                                         int(digits) if digits else 10)


def rows(calls, stacks=None):
    """One dict per (RTT, initial window, stack, chain, key, cipher, names, resumed, early
    data accepted): n,
    medians and the model's round trips."""
    groups = {}
    for call in calls:
        run, link = call.get("run_tls", {}), call.get("run_link", {})
        key = (link.get("rtt_ms") or 0, link.get("initcwnd", ""), call.get("stack", ""),
               run.get("chain", 0), run.get("key", ""),
               run.get("cipher", ""), run.get("names", 0), bool(call["tls"]["resumed"]),
               call["tls"].get("early_data") == "accepted")
        groups.setdefault(key, []).append(call)
    out = []
    for (rtt_ms, initcwnd, stack, chain, key, cipher, names, resumed, early), group \
            in sorted(groups.items()):
        by_time = statistics.median(c["tls"]["handshake_rtts_by_time"] for c in group)
        row = {"rtt_ms": rtt_ms, "initcwnd": initcwnd, "stack": stack, "chain": chain,
               "key": key, "cipher": cipher, "names": names,
               "resumed": resumed, "early_data": early, "n": len(group),
               "rtts_by_flights": statistics.median(c["tls"]["handshake_rtts"] for c in group),
               "rtts_by_time": by_time,
               "first_flight_bytes": statistics.median(
                   c["tls"]["server_first_flight_bytes"] for c in group),
               "model_rtts": None, "agrees": None}
        if not resumed:
            row["model_rtts"] = wire_model.measured_exchange(stack, stacks)["tls_handshake_rtts"] \
                + _overflow(stack, row["first_flight_bytes"], initcwnd, stacks)
            row["agrees"] = row["model_rtts"] == round(by_time)
        out.append(row)
    return out


def _resumption(row):
    """The table's resumed column: no, yes, or yes with its request as 0-RTT early data."""
    if row.get("early_data"):
        return "0-RTT"
    return "yes" if row["resumed"] else "no"


def table(found):
    """rows() as a Markdown table."""
    lines = ["| RTT ms | initial window | stack | chain | key | cipher | names | resumed | calls "
             "| RTTs by flights | RTTs by time | first flight B | model RTTs | |",
             "| --- " * 14 + "|"]
    for r in found:
        model = "no resumption" if r["model_rtts"] is None else str(r["model_rtts"])
        verdict = "" if r["agrees"] is None else ("agrees" if r["agrees"] else "**differs**")
        lines.append(f"| {r['rtt_ms']:g} | {r['initcwnd']} | {r['stack']} | {r['chain']} "
                     f"| {r['key']} | {r['cipher']} | {r['names']} "
                     f"| {_resumption(r)} | {r['n']} "
                     f"| {r['rtts_by_flights']:g} | {r['rtts_by_time']:.2f} "
                     f"| {r['first_flight_bytes']:,.0f} | {model} | {verdict} |")
    return "\n".join(lines)
