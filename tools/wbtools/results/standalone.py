"""The loops of `wirebench_standalone` (benchmarks/standalone/) in REPORT.md.

`wirebench bench` writes RESULT-standalone.json beside a result: the same build on the same
CPU, each loop with interleaved repetitions. Its names are
  standalone/{library}/{payload}[/{loop}]   the library's own loop, bypassing our seam
  seam/{library}/{payload}[/{op}]           our registry decoder in the same process
  default/{library}/{payload}               the library's parse with its default flags, as
                                            its users ship it
and the report compares them as ratios within the file:
- JSON: each library's minimal parse loop against our seam's parse_only (the harness's cost);
- XML DOMs without namespace support: the library's parse, the parse plus a bare traversal,
  and the parse plus the least walk a binder needs, against our parse-only and decode + bind:
  the floors under "decode + bind against parse-only";
- each library with its default flags against our codecs of it (the equal conditions: UTF-8
  checked, bounded nesting, exact doubles), each a multiple of the default parse.
"""

import math

from .. import units
from ..cli import UserError, read_json


def load(path):
    """{run name: median cpu_time in seconds}; UserError when the file cannot be used."""
    data = read_json(path, "the standalone file")
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise UserError(f"{path}: not a Google Benchmark result (no 'benchmarks' list)")
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    medians, single = {}, {}
    for bench in data["benchmarks"]:
        name = bench.get("run_name", bench.get("name"))
        seconds = bench.get("cpu_time", math.nan) * scale.get(bench.get("time_unit", "ns"), 1e-9)
        if bench.get("aggregate_name") == "median":
            medians[name] = seconds
        elif bench.get("run_type") == "iteration":
            single.setdefault(name, seconds)  # one repetition: no aggregates
    return {**single, **medians}


def _json_rows(times):
    rows = []
    for name in sorted(times):
        parts = name.split("/")
        if len(parts) < 4 or parts[0] != "standalone" or parts[2] != "json":
            continue
        seam = times.get("seam/" + "/".join(parts[1:]))
        rows.append([parts[1], "/".join(parts[2:]), units.seconds(times[name]),
                     units.seconds(seam), units.ratio(seam, times[name])])
    return rows


def _dom_rows(times):
    rows = []
    for name in sorted(times):
        parts = name.split("/")
        if len(parts) < 4 or parts[0] != "standalone" or parts[-1] != "parse":
            continue
        library, payload = parts[1], "/".join(parts[2:-1])
        own = times[name]
        traverse = times.get(f"standalone/{library}/{payload}/parse+traverse")
        walk = times.get(f"standalone/{library}/{payload}/parse+walk")
        parse_only = times.get(f"seam/{library}/{payload}/parse-only")
        decode = times.get(f"seam/{library}/{payload}/decode")
        rows.append([library, payload, units.seconds(own),
                     f"{units.seconds(traverse)} ({units.ratio(traverse, own)})",
                     f"{units.seconds(walk)} ({units.ratio(walk, own)})", units.seconds(parse_only),
                     f"{units.seconds(decode)} ({units.ratio(decode, parse_only)})"])
    return rows


def _default_rows(times):
    """A row per seam codec of a library that has a default/ loop: the codecs whose name is
    the library's or starts with it and a dash (rapidjson-dom, rapidjson-dom-fast)."""
    rows = []
    for name in sorted(times):
        parts = name.split("/")
        if len(parts) < 4 or parts[0] != "default":
            continue
        library, payload = parts[1], "/".join(parts[2:])
        for seam in sorted(times):
            seam_parts = seam.split("/")
            if (len(seam_parts) < 4 or seam_parts[0] != "seam"
                    or not (seam_parts[1] == library or seam_parts[1].startswith(library + "-"))
                    or "/".join(seam_parts[2:]) not in (payload, payload + "/parse-only")):
                continue
            rows.append([library, payload, units.seconds(times[name]), seam_parts[1],
                         units.seconds(times[seam]), units.ratio(times[seam], times[name])])
    return rows


def section(times):
    if not times:
        return ""
    text = ["## Standalone loops (wirebench_standalone)\n",
            "The same build and CPU as the result, each loop with interleaved repetitions "
            "(RESULT-standalone.json); cpu_time medians, compared within the file.\n"]
    json_rows = _json_rows(times)
    if json_rows:
        text.append("Each JSON library's own minimal parse loop against our seam's parse_only "
                    "(the registry decoder): the ratio is what the harness adds.\n")
        text.append(units.table(["library", "payload", "own loop", "seam parse_only", "seam / own"],
                                json_rows, "llrrr") + "\n")
    dom_rows = _dom_rows(times)
    if dom_rows:
        text.append("The XML DOMs without namespace support: the library's parse with our "
                    "adapter's options; that parse plus a bare traversal (every node reached, "
                    "nothing read) and plus the least walk any binder needs (every name, "
                    "attribute name and text read, nothing bound), as multiples of the parse; "
                    "then our parse-only and our decode + bind as a multiple of it. The walks "
                    "are floors under decode + bind that no binder over that DOM goes below.\n")
        text.append(units.table(["library", "payload", "parse", "+ traversal", "+ walk",
                                 "seam parse-only", "seam decode + bind"],
                                dom_rows, "llrrrrr") + "\n")
    default_rows = _default_rows(times)
    if default_rows:
        text.append("What the equal conditions cost: each library's parse as its users ship "
                    "it (its default flags: for RapidJSON recursive, no UTF-8 check, its fast "
                    "doubles; pugixml's parse_default; RapidXML's flags 0) against our codecs "
                    "of it, parse-only, as a multiple of the default parse. Ours check UTF-8 "
                    "(pugixml-dom-utf8, the RapidJSON codecs), bound nesting (RapidJSON's "
                    "iterative parser), read exact doubles (rapidjson-dom) and keep what a "
                    "binder needs (pugixml's whitespace text, RapidXML non-destructive).\n")
        text.append(units.table(["library", "payload", "default flags", "our codec",
                                 "its parse-only", "ours / default"],
                                default_rows, "llrlrr") + "\n")
    return "\n".join(text)
