#!/usr/bin/python3
"""wirebench model: the transfer model over a result file.

One call's time = encode + compress + transfer + decompress + decode, per payload in
RESULT.json, per link profile and per (format, serializer, parser, compression). By default it
prints the answer: per link and payload the fastest call, with the calls tied with it (their
95 % intervals overlap), then the fastest paged sequence (the science subset as 9 requests)
per link, then the relay-2009 fit. --per-format adds, per link, the fastest call of each
format in the file and the paged sequence's fastest per format. --top N adds each payload's N
fastest pairings and the N fastest paged sequences, with the CPU share and the bandwidth at
which CPU and wire cost the same; --all adds every pairing. Link profiles: tools/links.json
(+ --links FILE).
"""

import argparse
import json
import math
import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli, results  # noqa: E402
from wbtools.transfer import links, calls, model_view  # noqa: E402
from wbtools.results import paired  # noqa: E402


def parse_args(argv):
    parser = cli.ArgumentParser(
        prog="wirebench model", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", metavar="RESULT.json", help="Google Benchmark JSON result file")
    parser.add_argument("--link", help="only this link profile (default: all)")
    parser.add_argument("--links", metavar="FILE",
                        help="extra link profiles (same shape as tools/links.json)")
    parser.add_argument("--stack", metavar="S",
                        help="every link's calls over stack S, one of tools/links.json's "
                             "\"stacks\" (http1, http1+tls1.2, http1+tls1.3, h2+tls1.3, h2c, "
                             "grpc): its handshake, bytes, window and handshake CPU priced; "
                             "default: each profile's own (wan and mobile: http1+tls1.3)")
    parser.add_argument("--dataset", help="only this dataset (message, airport, science)")
    parser.add_argument("--per-format", action="store_true",
                        help="also, per link, the fastest call of each format for every "
                             "payload and the fastest paged sequence of each format")
    more = parser.add_mutually_exclusive_group()
    more.add_argument("--top", type=cli.positive_int, metavar="N",
                      help="also the N fastest pairings per payload and paged sequences")
    more.add_argument("--all", action="store_true",
                      help="also every pairing of every payload (long: thousands of rows "
                           "for a full run)")
    parser.add_argument("--clock", choices=("cpu", "real"), default="cpu",
                        help="which measured time is CPU cost (default cpu_time)")
    parser.add_argument("--json", action="store_true",
                        help="print every pairing on every link as JSON instead of tables")
    parser.add_argument("--headline", action="store_true",
                        help="print only the README's headline table: per link the fastest "
                             "call of --dataset (default science) at its largest size, with "
                             "the calls tied with it")
    return parser.parse_args(argv)


def _finite(value):
    """JSON has no NaN/Infinity: write them as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def main(argv=None):
    args = parse_args(argv)
    result = results.load(args.result)
    chosen = links.pick(links.load_links(args.links), args.link)
    if args.stack:
        chosen = [links.with_stack(link, args.stack) for link in chosen]
    pairings = calls.collect(result, args.clock)
    if args.dataset and not any(p.dataset == args.dataset for p in pairings.items):
        raise cli.UserError(f"no dataset '{args.dataset}' with encode results in {args.result}")
    if args.headline:
        table = model_view.headline(pairings, chosen, args.dataset or "science")
        if not table:
            raise cli.UserError(f"no pairing of {args.dataset or 'science'} in {args.result}")
        print(table)
        return 0
    if args.json:
        json.dump(_finite(model_view.as_json(pairings, chosen, args.dataset)), sys.stdout, indent=1)
        print()
        return 0
    if not pairings.items:
        print(f"{args.result}: no encode benchmarks with a wire_bytes counter: nothing to model")
        return 0
    estimator = ("paired times: the probe's fast time x the median per-round ratio, "
                 "intervals over the rounds" if paired.in_rounds(result.context) else "medians")
    print(f"# Transfer model: {args.result} ({args.clock}_time {estimator})\n")
    print("## The fastest call per link and payload\n")
    print("One call = encode + compress + wire + decompress + decode. The calls tied with the "
          "fastest are those whose 95 % intervals overlap its own: the data cannot rank them. "
          "The fastest call of each format: --per-format; each payload's fastest pairings: "
          "--top N; every pairing: --all.\n")
    print(model_view.answer_table(pairings, chosen, args.dataset) + "\n")
    print("Link profiles (tools/links.json):\n")
    print(model_view.links_list(chosen) + "\n")
    paged = model_view.paged_answer_table(pairings, chosen, args.dataset)
    if paged:
        print(model_view.paged_heading() + ", the fastest per link:\n")
        print(paged + "\n")
    for note in pairings.notes:
        print(f"note: {note}\n")
    if args.per_format:
        print("## Fastest call per format\n")
        print("Per link and payload, the fastest call of each format, whatever its libraries "
              "and compression, fastest first.\n")
        print(model_view.fastest_sections(pairings, chosen, args.dataset))
    if args.top or args.all:
        print(f"## The {args.top} fastest pairings per payload\n" if args.top else
              "## Every pairing\n")
        print(model_view.model_sections(pairings, chosen, args.dataset, args.top))
    if any(link.name == "relay-2009" for link in chosen):
        print("## relay-2009 fit\n")
        print(model_view.relay_fit_section(pairings))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
