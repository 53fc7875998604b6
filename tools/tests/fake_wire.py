#!/usr/bin/python3
"""A stand-in for wirebench_wire in the matrix's tests (test_wire_stacks.py): the JSON lines of a
run of --transfer or --http SPEC [--grpc], with no link built."""

import json
import sys

args = sys.argv[1:]
rate, rtt = float(args[args.index("--rate-mbps") + 1]), float(args[args.index("--rtt-ms") + 1])
congestion = args[args.index("--congestion") + 1]
link = {"rate_mbps": rate, "rtt_ms": rtt, "initcwnd": "kernel default (10)",
        "congestion_control": congestion, "congestion_set_by": "route congctl"}
print(json.dumps({"type": "context", "link": link, "server_congestion_in_use": congestion}))
print(json.dumps({"type": "check", "result": {
    "ok": True, "rtt_median_ms": rtt, "rtt_expected_ms": rtt, "rtt_error_pct": 0.0,
    "ip_rate_mbps": rate, "rate_error_pct": 0.0, "bulk_drops": 0}}))
if "--transfer" in args:
    n = int(args[args.index("--cold") + 1])
    for size in map(int, args[args.index("--transfer") + 1].split(",")):
        for series, connection in [("cold", "cold")] * n + [("warm", "cold")] + [("warm", "warm")] * n:
            ms = (3 if connection == "cold" else 1) * rtt
            print(json.dumps({"type": "request", "series": series, "connection": connection,
                              "bytes": size, "last_byte_ms": ms, "first_byte_ms": ms,
                              "link_drops": 0}))
else:
    spec = dict(kv.split("=") for kv in args[args.index("--http") + 1].split(","))
    grpc = "--grpc" in args
    print(json.dumps({"type": "grpc_context" if grpc else "http_context", "tls": {}}))
    # Warm-up calls first (SPEC warmup=N), slower than any timed one: the matrix leaves them
    # out, and a test that counted them would see it.
    runs = [("warmup", i) for i in range(int(spec.get("warmup", 0)))]
    runs += [("grpc" if grpc else "http", i) for i in range(int(spec["requests"]))]
    for series, index in runs:
        new = index == 0
        slow = 9 if series == "warmup" else 1
        call = {"type": "grpc_call" if grpc else "http_request", "series": series, "index": index,
                "stack": "grpc" if grpc else "http1", "dataset": spec["dataset"],
                "rows": int(spec["rows"]), "format": spec["format"],
                "connection": "new" if new else "kept-alive", "server_encode_ms": 0.1,
                "last_byte_ms": slow * (4 if new else 1) * rtt,
                "first_byte_ms": slow * (4 if new else 1) * rtt,
                "checked": True, "link_drops": 0, "error": None}
        if grpc:
            call.update(message_bytes=2417, compression="none", link_up_bytes=300,
                        link_down_bytes=3000, connect_ms=3 * rtt if new else None)
        else:
            call.update(body_bytes=4617, server_compress_ms=0, tls=None)
        print(json.dumps(call))
