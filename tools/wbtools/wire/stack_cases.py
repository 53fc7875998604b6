"""The matrix over a protocol stack: its wirebench_wire runs, its calls and its cases.

A stack of tools/links.json's "stacks" runs as wirebench_wire's --http exchange with that
stack's options (OPTIONS): plain HTTP/1.1, TLS 1.2 or 1.3, HTTP/2 over TLS 1.3 or cleartext,
gRPC over TLS 1.3. The page goes as JSON (the reference encoder, the format's first exact
decoder) over HTTP and as the protobuf codec's messages over gRPC, and every call's rows are
decoded and checked by the executable.

One run of the executable per (profile, congestion control, stack, payload, round): one
kept-alive connection whose opening call is the cold call (a new connection and a full
handshake, timed from the connect() call or the channel's creation) and whose next
WARM_CALLS calls are the warm ones (timed from the request's send). The link's build and
self-check take 6 to 13 s a run, several times the calls', so the cold call is the opening one
and not a run of its own. A case (stack, payload, cold or warm) is priced per call by
stack_check (the stack's transfer over the run's link plus the handshake CPU) and summarised
over its rounds, the warm calls of every round pooled.
"""

import json
import statistics

from ..cli import UserError
from . import stack_check, wire_measure

# wirebench_wire's options per stack (docs/wire-tls.md, wire-h2.md, wire-grpc.md).
OPTIONS = {
    "http1": [],
    "http1+tls1.2": ["--tls", "1.2"],
    "http1+tls1.3": ["--tls", "1.3"],
    "h2+tls1.3": ["--tls", "1.3", "--h2"],
    "h2c": ["--h2"],
    "grpc": ["--tls", "1.3", "--grpc"],
}
# The page's format per stack: gRPC answers with the protobuf codec's messages.
FORMATS = {"grpc": "format=protobuf,encoder=libprotobuf"}
JSON_FORMAT = "format=json"
# (dataset, rows) measured by default: a message page of 4.6 KB of JSON and a science page
# of 165 KB, one and several slow-start rounds.
DEFAULT_PAYLOADS = (("message", 100), ("science", 1000))
CONNECTIONS = ("cold", "warm")
# Warm calls per run. More than one because a connection's second call is not yet a warm one
# in the model's sense on every link: over wan the client's receive window, which Linux grows
# with what the application read in the last round trip, still holds science/1000's second
# response to two round trips (docs/wire.md, "Per stack"), and an HTTP/2 connection's window
# carried from call to call cycles over three calls, whose median the model prices.
WARM_CALLS = 4


def choose_stacks(names, known):
    """The stacks of names ("all": every one of known, in its order), each checked."""
    if "all" in names:
        return list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UserError(f"unknown stack {unknown[0]} (known: {', '.join(known)}, or all)")
    missing = [n for n in names if n not in OPTIONS]
    if missing:
        raise UserError(f"stack {missing[0]}: no wirebench_wire options for it (known: "
                        f"{', '.join(OPTIONS)})")
    return list(dict.fromkeys(names))


def parse_payload(text):
    """(dataset, rows) of "DATASET/ROWS" (or "FORMAT/DATASET/ROWS": the format is the
    stack's own and is dropped)."""
    parts = text.split("/")
    if len(parts) == 3:
        parts = parts[1:]
    if len(parts) != 2 or not parts[0] or not parts[1].isdigit() or int(parts[1]) < 1:
        raise UserError(f"--payload {text}: with --stack, a payload is DATASET/ROWS, e.g. "
                        "science/1000")
    return parts[0], int(parts[1])


def command(binary, profile, congestion, stack, payload, warm):
    """The wirebench_wire command line of one run: a warm-up call on a connection of its own
    (untimed: a process's first exchange pays one-time costs, 3 ms on wan for plain HTTP/1.1
    and 10 to 20 for gRPC's first channel, that a service's client has long paid), then an
    opening (cold) call and warm more."""
    dataset, rows = payload
    spec = (f"dataset={dataset},rows={rows},requests={1 + warm},reconnect=0,warmup=1,"
            + FORMATS.get(stack, JSON_FORMAT))
    return [binary, "--rate-mbps", f"{profile['bandwidth_mbps']:g}",
            "--rtt-ms", f"{profile['rtt_ms']:g}", "--congestion", congestion,
            "--http", spec, *OPTIONS[stack]]


def calls(lines, round_index, where):
    """The calls of one run's stdout lines, each with its round; an error if a call failed
    or its rows were not checked, or if none is there."""
    found = []
    for line in lines:
        # stack_check.requests leaves failed calls out; the matrix refuses them.
        if line.lstrip().startswith("{") and any(f'"{kind}"' in line
                                                 for kind in stack_check.CALL_LINES):
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # stack_check.requests names the line
            if item.get("type") in stack_check.CALL_LINES and item.get("error"):
                raise UserError(f"{where}: call {item.get('index')} failed: {item['error']}")
    for call in stack_check.requests(lines):
        if call.get("checked") is not True:
            raise UserError(f"{where}: call {call.get('index')} has rows not checked")
        found.append({**call, "round": round_index})
    if not found:
        raise UserError(f"{where}: no http_request or grpc_call line in its output")
    return found


def connection(call):
    """"cold" (the call that opened the connection) or "warm"."""
    return "cold" if call.get("connection") == "new" else "warm"


def summarise(found, stacks=None, label="model", code="working tree"):
    """Cases of one group's calls: per payload and connection, in the order of first call."""
    groups = {}
    for call in found:
        key = (f"{call['dataset']}/{call['rows']}", connection(call))
        groups.setdefault(key, []).append(call)
    cases = []
    for (payload, how), group in groups.items():
        ms = [stack_check.measured_ms(c) for c in group]
        rounds = [c["round"] for c in group]
        figures = stack_check.summary(group, stacks)
        case = {
            "stack": group[0]["stack"], "payload": payload, "format": group[0].get("format"),
            "bytes": int(statistics.median(c["body_bytes"] for c in group)),
            "connection": how, "repetitions": len(ms), "measured_ms": ms,
            "median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms),
            "first_byte_median_ms": statistics.median(c["first_byte_ms"] for c in group),
            "link_drops": sum(c.get("link_drops") or 0 for c in group),
            "rounds": rounds, "disagreeing_rounds": wire_measure.disagreeing(ms, rounds),
            "handshake": {key: figures[key] for key in (
                "model_handshake_rtts", "handshake_rtts_by_time", "handshake_client_bytes",
                "handshake_server_bytes", "client_cpu_ms", "server_cpu_ms")},
        }
        up = [c["link_up_bytes"] for c in group if c.get("link_up_bytes") is not None]
        if up:
            case["link_bytes"] = {
                "up": statistics.median(up),
                "down": statistics.median(c["link_down_bytes"] for c in group)}
        price(case, figures["model_ms"], label, code)
        cases.append(case)
    return cases


def price(case, model_ms, label, code):
    """case["model"][label] = {"code", "ms", "ratio" (model / measured median), "within"}."""
    ratio = model_ms / case["median_ms"]
    case.setdefault("model", {})[label] = {
        "code": code, "ms": round(model_ms, 3), "ratio": round(ratio, 4),
        "within": abs(ratio - 1) <= stack_check.TOLERANCE}


def reprice(cases, found, label, stacks=None, code="working tree"):
    """Price every stack case again from the stored calls (found) under label."""
    by_case = {}
    for call in found:
        key = (call["profile"], call["congestion"], call["stack"],
               f"{call['dataset']}/{call['rows']}", connection(call))
        by_case.setdefault(key, []).append(call)
    for case in cases:
        group = by_case.get((case["profile"], case["congestion"], case["stack"],
                             case["payload"], case["connection"]))
        if group:
            price(case, stack_check.summary(group, stacks)["model_ms"], label, code)
    return cases
