"""The model's time of a call over its stack, against measured ones.

Reads the JSON lines of `wirebench_wire --http SPEC [--tls 1.3|1.2] [--h2 | --grpc]` runs:
every http_request and grpc_call line, with the link of its run (the "context" line: rate,
RTT and congestion control) and its run's TLS settings (the "http_context" or "grpc_context"
line). A grpc_call is priced as the stack "grpc" with its message_bytes (the serialized
answer) as the payload: the stack adds gRPC's prefix, frames, HEADERS and trailers. A gRPC
call compressed by gRPC is left out: its line holds the message's size before compression
only, so the bytes on the wire are not known. gRPC reports no TLS figures per call; its
cold call's round trips by time are its connect_ms (channel created to READY: TCP, TLS and
HTTP/2's preface) over the RTT, less TCP's one. A call is cold (a new connection, a full handshake),
resumed (a new connection whose TLS session was resumed), early (resumed, its request
accepted as TLS 1.3 early data) or warm (kept alive). Its measured
time is its last byte (from the connect() call, or from the request's send when warm) less
the server's encode and compress, which the transfer model does not hold; its model is the
stack's transfer (tcp.transfer over the run's rate and RTT, the exchange of
wire_model.measured_exchange) plus both ends' handshake CPU, which a measured call waits for.
"""

import dataclasses
import json
import statistics

from ..cli import UserError
from ..transfer import links, tcp
from . import wire_model

# The largest miss the model is held to, both ways.
TOLERANCE = 0.05
# The lines of one measured call.
CALL_LINES = ("http_request", "grpc_call")


def _as_call(item):
    """A grpc_call in http_request's terms (body_bytes, stack); an http_request as it is."""
    if item.get("type") != "grpc_call":
        return item
    return {**item, "stack": item.get("stack") or "grpc", "body_bytes": item["message_bytes"]}


def requests(lines):
    """The http_request and grpc_call objects of lines (text) without an error, each with its
    run's link under "run_link" ({"rate_mbps", "rtt_ms", "initcwnd", "congestion"}) and TLS
    settings under "run_tls"; gRPC calls compressed by gRPC are left out (module doc), and so
    are warm-up calls (SPEC warmup=N: series "warmup"), made before the timed ones so that the
    first timed call is not the process's first."""
    out, run_tls, run_link = [], {}, {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as err:
            raise UserError(f"line {number}: not JSON ({err.msg})") from None
        if item.get("type") == "context":
            link = item.get("link") or {}
            run_link = {"rate_mbps": link.get("rate_mbps"), "rtt_ms": link.get("rtt_ms"),
                        "initcwnd": str(link.get("initcwnd", "")),
                        "congestion": link.get("congestion_control")}
        elif item.get("type") in ("http_context", "grpc_context"):
            run_tls = item.get("tls") or {}
        elif item.get("type") in CALL_LINES and not item.get("error"):
            if item.get("compression", "none") != "none" or item.get("series") == "warmup":
                continue
            out.append({**_as_call(item), "run_tls": run_tls, "run_link": run_link})
    return out


def state(call):
    """"cold", "resumed", "early" (resumed, its request accepted as TLS 1.3 early data) or
    "warm"."""
    if call.get("connection") != "new":
        return "warm"
    tls = call.get("tls")
    if isinstance(tls, dict) and tls.get("early_data") == "accepted":
        return "early"
    return "resumed" if isinstance(tls, dict) and tls.get("resumed") else "cold"


def windows(call):
    """The call's HTTP/2 flow-control window (the smaller of the stream's and the
    connection's, as the client set them), or None off HTTP/2."""
    h2 = call.get("h2") or {}
    if not h2.get("stream_window"):
        return None
    return min(h2["stream_window"], h2.get("connection_window") or h2["stream_window"])


def model_ms(call, stacks=None):
    """(model ms, the model's handshake round trips) of one measured call."""
    run = call["run_link"]
    if not run.get("rate_mbps") or run.get("rtt_ms") is None:
        raise UserError("a request before any context line with the link's rate and RTT")
    profile = {"bandwidth_mbps": run["rate_mbps"], "rtt_ms": run["rtt_ms"],
               "congestion": call.get("server_congestion") or run.get("congestion") or "cubic",
               **wire_model.measured_exchange(call.get("stack", "http1"), stacks)}
    link = links.make_link("measured", profile, stacks)
    window = windows(call)
    if link.stack_spec is not None and link.stack_spec.flow_window_bytes and window:
        # The call's own windows (--h2-window), not the stack's default.
        link = dataclasses.replace(link, stack_spec=dataclasses.replace(
            link.stack_spec, flow_window_bytes=window))
    parts = tcp.transfer(call["body_bytes"], link, connection=state(call))
    return (parts["total"] + parts["handshake_cpu"]) * 1e3, parts["handshake_rtts"]


def measured_ms(call):
    """The call's last byte less the server's encode and compress, ms."""
    return call["last_byte_ms"] - (call.get("server_encode_ms") or 0) \
        - (call.get("server_compress_ms") or 0)


def handshake_rtts_by_time(call):
    """The measured handshake's round trips by time: TLS's from its "tls" object; a new gRPC
    channel's from created to READY over the RTT, less TCP's round trip; else None."""
    tls = call.get("tls")
    if isinstance(tls, dict):
        return tls.get("handshake_rtts_by_time")
    rtt = call.get("run_link", {}).get("rtt_ms")
    if call.get("connect_ms") is not None and rtt:
        return call["connect_ms"] / rtt - 1
    return None


def summary(group, stacks=None):
    """The figures of calls of one case (same link, stack, payload and state): n, the
    measured median (and min, max), the model's median and its handshake round trips, the
    handshake's round trips by time, bytes each way and CPU each side (measured medians;
    None where no call has them), and the ratio model / measured with its verdict."""
    stacks = links.load_stacks() if stacks is None else stacks
    measured = [measured_ms(c) for c in group]
    modelled = [model_ms(c, stacks) for c in group]
    shakes = [c["tls"] for c in group if isinstance(c.get("tls"), dict)]
    by_time = [x for x in map(handshake_rtts_by_time, group) if x is not None]

    def median_of(field):
        return statistics.median(t[field] for t in shakes) if shakes else None

    out = {"n": len(group), "measured_ms": statistics.median(measured),
           "min_ms": min(measured), "max_ms": max(measured),
           "model_ms": statistics.median(m for m, _ in modelled),
           "model_handshake_rtts": modelled[0][1],
           "handshake_rtts_by_time": statistics.median(by_time) if by_time else None,
           "handshake_client_bytes": median_of("client_bytes"),
           "handshake_server_bytes": median_of("server_bytes"),
           "client_cpu_ms": median_of("client_cpu_ms"),
           "server_cpu_ms": median_of("server_cpu_ms")}
    out["model_ratio"] = out["model_ms"] / out["measured_ms"] if out["measured_ms"] else None
    out["within"] = out["model_ratio"] is not None and abs(out["model_ratio"] - 1) <= TOLERANCE
    return out


def rows(calls, stacks=None):
    """One dict per (rate, RTT, stack, dataset, rows, state): n, the medians measured and
    modelled, their ratio, the handshake's round trips (model; measured by time), bytes and
    CPU (measured medians), and whether the ratio is within TOLERANCE."""
    stacks = links.load_stacks() if stacks is None else stacks
    groups = {}
    for call in calls:
        run = call["run_link"]
        key = (run.get("rate_mbps") or 0, run.get("rtt_ms") or 0, call.get("stack", "http1"),
               call.get("dataset", ""), call.get("rows", 0), state(call), windows(call) or 0)
        groups.setdefault(key, []).append(call)
    out = []
    for (rate, rtt, stack, dataset, count, how, window), group in sorted(groups.items()):
        found = summary(group, stacks)
        row = {"rate_mbps": rate, "rtt_ms": rtt, "stack": stack, "window": window or None,
               "dataset": dataset, "rows": count, "state": how, "n": found["n"],
               "measured_ms": found["measured_ms"], "model_ms": found["model_ms"],
               "ratio": found["measured_ms"] / found["model_ms"] if found["model_ms"] else None,
               "model_handshake_rtts": found["model_handshake_rtts"],
               "handshake_rtts_by_time": found["handshake_rtts_by_time"],
               "handshake_bytes": None if found["handshake_client_bytes"] is None else
               found["handshake_client_bytes"] + found["handshake_server_bytes"],
               "client_cpu_ms": found["client_cpu_ms"], "server_cpu_ms": found["server_cpu_ms"]}
        row["within"] = row["ratio"] is not None and abs(row["ratio"] - 1) <= TOLERANCE
        out.append(row)
    return out


def _cell(value, spec):
    return "—" if value is None else format(value, spec)


def _window(row):
    """A stack cell's note of an HTTP/2 window other than the protocol's default."""
    return f" (window {row['window']:,})" if row.get("window") not in (None, 65535) else ""


def table(found):
    """rows() as a Markdown table."""
    lines = ["| link | stack | payload | state | calls | measured ms | model ms "
             "| measured / model | handshake RTTs: model / by time | handshake B "
             "| CPU client / server ms |",
             "| --- " * 11 + "|"]
    for r in found:
        ratio = _cell(r["ratio"], ".3f") + ("" if r["within"] else " **outside ±5 %**")
        lines.append(
            f"| {r['rate_mbps']:g} Mbit/s, {r['rtt_ms']:g} ms | {r['stack']}{_window(r)} "
            f"| {r['dataset']}/{r['rows']} | {r['state']} | {r['n']} "
            f"| {r['measured_ms']:.2f} | {r['model_ms']:.2f} | {ratio} "
            f"| {r['model_handshake_rtts']} / {_cell(r['handshake_rtts_by_time'], '.2f')} "
            f"| {_cell(r['handshake_bytes'], ',.0f')} "
            f"| {_cell(r['client_cpu_ms'], '.2f')} / {_cell(r['server_cpu_ms'], '.2f')} |")
    return "\n".join(lines)
