#!/usr/bin/python3
"""wirebench wire-table: the model against the measured wire, as a Markdown table.

Reads a -wire.json of `./wirebench wire --matrix` and prints its context (kernel, the
emulator's self-check per link, TCP settings) and one row per case: profile, payload,
bytes, congestion control, cold or warm, repetitions, the measured median (min-max), then
for every model the file holds (e.g. before and after a change of tcp.py) its time and the
ratio model / measured, and the working tree's model. Ratios outside +-5 % are in bold.
--store LABEL writes the working tree's model into the file under LABEL.

A run of `wire --matrix --stack S` prints, per link, congestion control and payload, the
stacks side by side: cold and warm measured medians (min-max, calls), the model of each
stored label and the working tree's (repriced from the calls the file keeps), the ratio,
the handshake's round trips (model / by time), bytes each way and CPU per side.
"""

import argparse
import json
import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.wire import stack_cases, wire_model  # noqa: E402

TOLERANCE = 0.05


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench wire-table", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", metavar="RESULT-wire.json", help="a -wire.json result")
    parser.add_argument("--store", metavar="LABEL",
                        help="store the working tree's model in the file under LABEL")
    parser.add_argument("--no-current", action="store_true",
                        help="only the models stored in the file, not the working tree's")
    parser.add_argument("--summary", action="store_true",
                        help="only the ratio summary per model, no per-case rows")
    return parser.parse_args(argv)


def ratio_cell(ratio):
    text = f"{ratio:.3f}"
    return f"**{text}**" if abs(ratio - 1) > TOLERANCE else text


def ms_cell(ms):
    return f"{ms:,.0f}" if ms >= 1000 else f"{ms:.1f}"


def context_lines(data):
    ctx = data["context"]
    sizes = f"Payload sizes from {ctx['sizes_from']}." if ctx.get("sizes_from") else \
        "Payload sizes from the calls."
    per_case = f"{ctx['repetitions']} cold and {ctx['repetitions']} warm requests per case, " \
        f"{ctx['subset']} subset"
    if ctx.get("stacks"):
        # The run's own words for its calls: how many warm calls a run made changed once.
        calls = ctx.get("calls") or ("cold: a run's opening call; warm: the next one")
        per_case = (f"stacks {', '.join(ctx['stacks'])}; {ctx['repetitions']} rounds of a run "
                    f"per case ({calls})")
    lines = [f"Measured {ctx['date']} at {ctx['git_commit']} on {ctx['cpu_model']}, kernel "
             f"{ctx['kernel']}; {per_case}, {ctx['wall_s']:.0f} s. {sizes}", ""]
    lines += ["| link | congestion | initcwnd | self-check RTT (expected) | self-check rate "
              "(IP packets) | bulk drops |", "| --- | --- | --- | ---: | ---: | ---: |"]
    for g in data["groups"]:
        c, link = g["self_check"], g["link"]
        lines.append(
            f"| {g['profile']} {link['rate_mbps']:g} Mbit/s, {link['rtt_ms']:g} ms"
            + (f" ({g['stack']})" if g.get("stack") else "") + " | "
            f"{g['server_congestion_in_use']} ({link.get('congestion_set_by', '')}) | "
            f"{link.get('initcwnd', '')} | {c['rtt_median_ms']:.3f} ms ({c['rtt_expected_ms']:.3f}, "
            f"{c['rtt_error_pct']:+.2f} %) | {c['ip_rate_mbps']:.2f} Mbit/s "
            f"({c['rate_error_pct']:+.2f} %) | {c['bulk_drops']} |")
    # The congestion control differs per link row (set per route for cubic, where the
    # namespace's sysctl keeps its own value); the other TCP sysctls are the same throughout.
    sysctls = data["groups"][0]["link"].get("client_sysctls", {}) if data["groups"] else {}
    sysctls = {k: v for k, v in sysctls.items() if k != "net.ipv4.tcp_congestion_control"}
    if sysctls:
        lines += ["", "TCP sysctls in force (client and server namespace): " +
                  ", ".join(f"`{k}={v}`" for k, v in sorted(sysctls.items())) + "."]
    for name, why in ctx.get("profiles_left_out", {}).items():
        lines.append(f"\nLeft out: `{name}`: {why}.")
    if ctx.get("order") == "rounds":
        flagged = sum(bool(c.get("disagreeing_rounds")) for c in data["cases"])
        what = "link, congestion control, stack and payload" if ctx.get("stacks") else \
            "link and congestion control"
        lines.append(f"\nRequests in rounds: each round ran every {what} "
                     f"once, in a random order (seed {ctx.get('round_order_seed')}); "
                     f"{flagged} of {len(data['cases'])} cases have a repetition more than "
                     f"{ctx.get('disagree', 0.1):.0%} from their median (marked below).")
    for wait in ctx.get("quiet_waits", []):
        lines.append(f"\nBusy before {wait['before']}: waited {wait['waited_s']:.0f} s for "
                     f"{wait['busy'][0]}" + (" (still busy)" if wait["still_busy"] else ""))
    return lines


def summary_lines(cases, labels):
    lines = ["| model | cases | within +-5 % | worst ratio | median abs error |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label in labels:
        ratios = [c["model"][label]["ratio"] for c in cases if label in c["model"]]
        if not ratios:
            continue
        errors = sorted(abs(r - 1) for r in ratios)
        worst = max(ratios, key=lambda r: abs(r - 1))
        inside = sum(e <= TOLERANCE for e in errors)
        lines.append(f"| {label} ({cases[0]['model'][label]['code']}) | {len(ratios)} | "
                     f"{inside} | {worst:.3f} | {100 * errors[len(errors) // 2]:.1f} % |")
    return lines


def _disagreement(case):
    """" (disagree: round 2)" for a case whose repetitions disagree (wire_measure); ""."""
    rounds = case.get("disagreeing_rounds")
    if not rounds:
        return ""
    return f" (disagree: round {', '.join(str(r + 1) for r in rounds)})"


def table_lines(cases, labels):
    head = ["profile", "payload", "bytes", "cc", "conn", "n", "measured ms (min-max)"]
    for label in labels:
        head += [f"{label} ms", f"{label} ratio"]
    lines = ["| " + " | ".join(head) + " |",
             "| " + " | ".join(["---"] * 5 + ["---:"] * (len(head) - 5)) + " |"]
    for c in cases:
        row = [c["profile"], c["payload"], f"{c['bytes']:,}", c["congestion"], c["connection"],
               str(c["repetitions"]),
               f"{ms_cell(c['median_ms'])} ({ms_cell(c['min_ms'])}-{ms_cell(c['max_ms'])})"
               + _disagreement(c)]
        for label in labels:
            m = c["model"].get(label)
            row += [ms_cell(m["ms"]), ratio_cell(m["ratio"])] if m else ["", ""]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _hs(case, field, spec):
    value = case["handshake"].get(field)
    return "—" if value is None else format(value, spec)


def _stack_rows(by_stack, labels):
    """The rows of one stack table: (label, cell of a case) per figure, cold then warm."""
    rows = []
    for how in stack_cases.CONNECTIONS:
        rows.append((f"{how}: measured ms (min-max), n", lambda c: (
            f"{ms_cell(c['median_ms'])} ({ms_cell(c['min_ms'])}-{ms_cell(c['max_ms'])}), "
            f"{c['repetitions']}" + _disagreement(c)), how))
        for label in labels:
            rows.append((f"{how}: {label} ms / ratio", lambda c, label=label: (
                f"{ms_cell(c['model'][label]['ms'])} / {ratio_cell(c['model'][label]['ratio'])}"
                if label in c["model"] else ""), how))
    rows += [
        ("bytes of the page", lambda c: f"{c['bytes']:,} {c.get('format') or ''}", "cold"),
        ("handshake RTTs: model / by time", lambda c: (
            f"{c['handshake']['model_handshake_rtts']} / "
            f"{_hs(c, 'handshake_rtts_by_time', '.2f')}"), "cold"),
        ("handshake B: client / server", lambda c: (
            f"{_hs(c, 'handshake_client_bytes', ',.0f')} / "
            f"{_hs(c, 'handshake_server_bytes', ',.0f')}"), "cold"),
        ("handshake CPU ms: client / server", lambda c: (
            f"{_hs(c, 'client_cpu_ms', '.2f')} / {_hs(c, 'server_cpu_ms', '.2f')}"), "cold"),
        ("link B up / down (cold; gRPC)", lambda c: (
            f"{c['link_bytes']['up']:,.0f} / {c['link_bytes']['down']:,.0f}"
            if c.get("link_bytes") else "—"), "cold"),
    ]
    return rows


def stack_lines(cases, labels):
    """Per profile, congestion control and payload, one table with the stacks side by side."""
    out = []
    tables = {}
    for c in cases:
        key = (c["profile"], c["congestion"], c["payload"])
        tables.setdefault(key, {}).setdefault(c["stack"], {})[c["connection"]] = c
    for (profile, congestion, payload), by_stack in tables.items():
        stacks = list(by_stack)
        out += [f"### {profile}, {congestion}, {payload}", "",
                "| | " + " | ".join(stacks) + " |", "| --- |" + " ---: |" * len(stacks)]
        for title, cell, how in _stack_rows(by_stack, labels):
            cells = [cell(by_stack[s][how]) if how in by_stack[s] else ""
                     for s in stacks]
            if any(cells):
                out.append(f"| {title} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def main(argv):
    args = parse_args(argv)
    data = cli.read_json(args.result, "wire result")
    if not isinstance(data, dict) or data.get("type") != "wirebench-wire":
        raise cli.UserError(f"{args.result}: not a -wire.json of ./wirebench wire --matrix")
    stacked = [c for c in data["cases"] if c.get("stack")]
    cases = [c for c in data["cases"] if not c.get("stack")]
    calls = data.get("calls", [])
    if args.store:
        stack_cases.reprice(stacked, calls, args.store)
        wire_model.annotate(cases, wire_model.current(), args.store)
        tmp = args.result + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
        os.replace(tmp, args.result)
    elif not args.no_current:
        for part in (cases, stacked):
            if part is cases:
                wire_model.annotate(cases, wire_model.current(), "now")
            else:
                stack_cases.reprice(stacked, calls, "now")
            # A stored model that the working tree reproduces needs no second column.
            stored = {label for c in part for label in c["model"] if label != "now"}
            if any(all(c["model"].get(label, {}).get("ms") == c["model"].get("now", {}).get("ms")
                       for c in part) for label in stored):
                for c in part:
                    c["model"].pop("now", None)
    labels = list(dict.fromkeys(label for c in cases for label in c["model"]))
    # The old code first: "before" reads best left of "after".
    labels.sort(key=lambda label: label != "before")
    out = [f"# The transfer model against the measured wire: {os.path.basename(args.result)}",
           "", *context_lines(data), "", "Ratio = model / measured median; bold: outside "
           "+-5 %."]
    if cases:
        out += ["", *summary_lines(cases, labels)]
        if not args.summary:
            out += ["", *table_lines(cases, labels)]
    if stacked:
        stack_labels = list(dict.fromkeys(label for c in stacked for label in c["model"]))
        out += ["", "## Per stack", "", *summary_lines(stacked, stack_labels)]
        if not args.summary:
            out += ["", *stack_lines(stacked, stack_labels)]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
