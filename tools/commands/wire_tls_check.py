#!/usr/bin/python3
"""wire_tls_check: the model's TLS handshake round trips against measured ones.

Reads the JSON lines of `wirebench_wire --http SPEC --tls 1.3|1.2` runs (files, or - for
stdin) and prints, per stack and resumption, the calls that opened a TLS connection, their
median round trips by flights and by time, the median first flight and the model's
tls_handshake_rtts for the stack (tools/links.json's "stacks"). Exit status 1 when a cold
group differs from the model (e.g. a first flight beyond the initial window), 2 on bad input.

--calls: instead, every call's time against the model's over its stack (plain, TLS, h2, h2c;
gRPC's grpc_call lines as the stack grpc), per link, payload and state (cold, resumed, warm):
the medians of the last byte less the server's encode and of the model's transfer plus
handshake CPU, their ratio, the handshake's round trips, bytes and CPU
(tools/wbtools/wire/stack_check.py). Exit status 1 when a group's ratio is outside ±5 %.
"""

import argparse
import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.wire import stack_check, tls_stacks  # noqa: E402


def main(argv):
    parser = cli.ArgumentParser(
        prog="wire_tls_check", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="FILE", help="JSON lines of a run; - for stdin")
    parser.add_argument("--calls", action="store_true",
                        help="every call's time against the model's over its stack")
    args = parser.parse_args(argv)
    lines = []
    for path in args.runs:
        if path == "-":
            lines += sys.stdin.read().splitlines()
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                lines += handle.read().splitlines()
        except OSError as err:
            raise cli.UserError(f"{path}: {err.strerror}") from None
    if args.calls:
        found = stack_check.rows(stack_check.requests(lines))
        if not found:
            raise cli.UserError("no http_request or grpc_call in the input (run wirebench_wire "
                                "--http SPEC)")
        print(stack_check.table(found))
        return 0 if all(r["within"] for r in found) else 1
    calls = tls_stacks.tls_calls(lines)
    if not calls:
        raise cli.UserError("no call that opened a TLS connection in the input "
                            "(run wirebench_wire --http SPEC --tls 1.3)")
    found = tls_stacks.rows(calls)
    print(tls_stacks.table(found))
    return 1 if any(r["agrees"] is False for r in found) else 0


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv[1:]))
