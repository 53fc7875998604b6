"""The data a report page carries: everything its charts and tables draw, as one JSON object.

Times are seconds, sizes bytes, bandwidths bit/s; the page formats them. Every figure comes
from the result file (and the files beside it) through the same code REPORT.md uses, so the
page and `wirebench model` agree; the transfer model itself runs in the page (model.js).
"""

import dataclasses
import math
import statistics

from .. import conformance, labels, model, noise, published, results, stats

CONTEXT_FIRST = ("date", "host_name", "cpu_model", "kernel", "num_cpus", "mhz_per_cpu",
                 "cpu_pinned", "caches", "compiler", "cxx_flags", "wirebench_build_type",
                 "library_build_type", "simdjson_implementation",
                 "simdjson_ondemand_implementation", "git_commit", "dataset_seed", "run_kind",
                 "pairing_matrix", "glibc_tunables", "allocation_counter", "note")
# The case the page opens with: the first of these datasets present, at its largest size.
DEFAULT_DATASETS = ("science", "airport", "message")
# The link the page opens with when the profiles hold it: a kept-alive data-centre link.
DEFAULT_LINK = "lan"
# Operations the throughput chart offers, in this order.
THROUGHPUT_OPS = ("encode", "decode", "parse-only", "decode-new-parser", "decode-cold-cache",
                  "route", "compress", "decompress")
# Decoder checks shown as the hostile-input matrix, by the label text that states each.
CHECKS = (("UTF-8", "validates UTF-8", "no UTF-8 check"),
          ("XML character ranges", "checks XML character ranges",
           "no XML character-range check"),
          ("doubles", "exact doubles", "inexact doubles"))


def clean(value):
    """value with NaN and infinities as None (JSON has no NaN), floats to 9 significant
    digits (the page shows at most 4; the file stays small)."""
    if isinstance(value, float):
        return float(f"{value:.9g}") if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def _case_key(fmt, dataset, rows):
    return f"{fmt}/{dataset}/{rows}"


def context_rows(context):
    """[[key, text]]: the machine and build first, then library versions, then the rest."""
    def text(key, value):
        if key == "caches" and isinstance(value, list):
            return ", ".join(f"L{c.get('level')} {c.get('type', '')} {c.get('size', 0):,} B"
                             for c in value) or "(none reported)"
        if isinstance(value, list):
            return ", ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in value)
        return str(value)
    rows = [[key, text(key, context[key])] for key in CONTEXT_FIRST if key in context]
    rows += [[key, text(key, context[key])] for key in sorted(context)
             if key.startswith("library.")]
    rows += [[key, text(key, value)] for key, value in context.items()
             if key not in CONTEXT_FIRST and not key.startswith(("library.", labels.PREFIX))]
    return rows


def _pairings(pairings):
    """Pairings per "dataset/rows" as rows of indices into one string table plus numbers."""
    strings, index = [], {}

    def ref(text):
        if text not in index:
            index[text] = len(strings)
            strings.append(text)
        return index[text]
    by_case = {}
    for p in pairings.items:
        by_case.setdefault(f"{p.dataset}/{p.rows}", []).append(
            [ref(p.format), ref(p.serializer), ref(p.parser), ref(p.compression), p.wire_bytes,
             p.encode, p.decode, p.compress, p.decompress])
    return strings, by_case


def _interval(run):
    """(low, high, kind, coverage) of a run's cpu times: the order-statistic interval of the
    median when there are enough repetitions, else min-max."""
    times = run.cpu
    interval = stats.median_interval(times) if times else None
    if interval:
        return interval.low, interval.high, "ci", interval.confidence
    if times:
        return min(times), max(times), "minmax", None
    return None, None, "none", None


def throughput(result, noisy):
    out = []
    what = labels.of(result)
    for run in result.select():
        name = run.name
        if name.op not in THROUGHPUT_OPS or name.is_reference or name.threads != 1:
            continue
        median = run.median()
        rate = run.throughput()
        payload = rate * median if rate and median and math.isfinite(median) else None
        low, high, kind, coverage = _interval(run)
        _, _, cv = run.spread()
        out.append({"case": _case_key(*name.case), "op": name.op, "library": name.library,
                    "source": name.source, "median": median, "low": low, "high": high,
                    "interval": kind, "coverage": coverage, "n": len(run.cpu), "cv": cv,
                    "bytes": payload, "noisy": name.full in noisy,
                    "labels": what.of_name(name)})
    return out


def parse_only(result):
    out = []
    for case, parse, matching in result.parse_only_pairs():
        decode = statistics.median(r.median() for r in matching) if matching else None
        cvs = [r.spread()[2] for r in [parse] + matching]
        out.append({"case": _case_key(*case), "parser": parse.name.library,
                    "parse": parse.median(), "decode": decode,
                    "cv": max((cv for cv in cvs if not math.isnan(cv)), default=None)})
    return out


def memory(result):
    out = []
    for run in result.select():
        name = run.name
        if name.op not in ("decode", "encode", "decode-new-parser") or not run.memory:
            continue
        if name.op == "decode" and name.source not in ("reference", ""):
            continue  # the serializer of the input barely changes a parser's allocations
        rate, median = run.throughput(), run.median()
        out.append({"case": _case_key(*name.case), "op": name.op, "library": name.library,
                    "allocs": run.memory.get("allocs_per_iter"),
                    "total": run.memory.get("total_allocated_bytes"),
                    "peak": run.memory.get("max_bytes_used"),
                    "retained": run.memory.get("net_heap_growth"),
                    "payload": rate * median if rate and math.isfinite(median) else None,
                    "rows": name.rows})
    return out


def sizes(result):
    out = []
    for run in result.select(op="encode"):
        wire = run.counter("wire_bytes")
        if wire is None:
            continue
        entry = {"case": _case_key(*run.name.case), "serializer": run.name.library, "wire": wire}
        for codec in results.CODECS:
            entry[codec] = run.counter(f"{codec}_bytes")
        out.append(entry)
    return out


def published_sizes(size_entries):
    by_case = {}
    for entry in size_entries:
        by_case.setdefault(entry["case"], {})[entry["serializer"]] = entry["wire"]
    out = []
    for case, figure, source, comparison in published.SIZES:
        writers = by_case.get(_case_key(*case))
        if not writers:
            continue
        ours = writers.get("reference", writers[sorted(writers)[0]])
        out.append({"case": _case_key(*case), "ours": ours, "published": figure,
                    "source": source, "verdict": published.verdict(ours, figure, comparison)})
    return out


def matrix(result):
    """Decode cells per case: [[parser, serializer that wrote the input, MB/s, seconds]]."""
    out = {}
    for run in result.select(op="decode"):
        out.setdefault(_case_key(*run.name.case), []).append(
            [run.name.library, run.name.source or "(any)", run.throughput(), run.median()])
    return out


def hostile(result):
    """Per decoder, what its labels say it checks: [format, decoder, [check states], other
    leniencies]; [] without labels in the file."""
    out = []
    for fmt, role, library, text in labels.of(result).entries():
        if role != "decode":
            continue
        items = [item.strip() for item in text.split(", ")]
        states = []
        for _, yes, no in CHECKS:
            states.append("yes" if any(i.startswith(yes) for i in items) else
                          "no" if any(i.startswith(no) for i in items) else None)
        lenient = [i for i in items if i.startswith(("accepts", "stops at"))]
        out.append([fmt, library, states, lenient])
    return out


def conformance_data(matrix_data):
    if not matrix_data:
        return None
    decoders = matrix_data["decoders"]
    names = [d["library"] for d in decoders]

    def departs(entry, library):
        outcome, expected = entry["parse"].get(library), entry.get("expected")
        return (outcome == "crashed" or (expected == "accept" and outcome != "accepted")
                or (expected == "reject" and outcome != "rejected")
                or entry.get("decode", {}).get(library, "rejected") != "rejected")
    files = [[entry["name"], [entry["parse"].get(n) for n in names],
              [departs(entry, n) for n in names]]
             for entry in matrix_data["files"] if any(departs(entry, n) for n in names)]
    return {"decoders": decoders, "files": files, "total_files": len(matrix_data["files"]),
            "corpus": conformance.corpus_name(matrix_data)}


def wire_data(wire_result, links_by_name):
    """The measured wire (`wirebench wire --matrix`'s -wire.json, loaded as JSON): per case
    the profile, congestion control, payload, connection, the measured median and range in
    seconds, and the model's time (tcp.py as the file recorded it, after and before a model
    change) with its ratio to the measurement."""
    if wire_result is None:
        return None
    rows = []
    for case in wire_result.get("cases", []):
        model = case.get("model", {})
        after, before = model.get("after", {}), model.get("before", {})
        rows.append({"profile": case.get("profile"), "known": case.get("profile") in links_by_name,
                     "congestion": case.get("congestion"), "payload": case.get("payload"),
                     "bytes": case.get("bytes"), "connection": case.get("connection"),
                     "repetitions": case.get("repetitions"),
                     "measured": _ms(case.get("median_ms")), "min": _ms(case.get("min_ms")),
                     "max": _ms(case.get("max_ms")), "model": _ms(after.get("ms")),
                     "ratio": after.get("ratio"), "model_before": _ms(before.get("ms")),
                     "ratio_before": before.get("ratio")})
    context = wire_result.get("context", {})
    return {"file": context.get("file"), "commit": context.get("git_commit"),
            "date": context.get("date"), "rows": rows}


def _ms(value):
    return value / 1000 if isinstance(value, (int, float)) else None


# Fields of a scenario_result line that are not figures of a series.
_SCENARIO_SKIP = ("type", "scenario", "series")
# Line types of "other" that the page shows as tables when a file has this many or fewer of
# them (a scenario's own outcomes, such as faults' cases); more are counted only.
SCENARIO_OTHER_ROWS = 12


def scenario_columns(lines):
    """The columns of one table of scenario_result lines: the series, then each field in the
    order the lines give it, each published_FIELD right after FIELD (ours beside the published
    figure), the published note last. Any field a new scenario prints is shown as it is."""
    keys = list(dict.fromkeys(k for line in lines for k in line if k not in _SCENARIO_SKIP))
    published_of = {k: f"published_{k}" for k in keys if f"published_{k}" in keys}
    placed = set(published_of.values()) | {"published"}
    columns = ["series"]
    for key in keys:
        if key in placed:
            continue
        columns.append(key)
        if key in published_of:
            columns.append(published_of[key])
    return columns + (["published"] if "published" in keys else [])


def _scenario_tables(lines):
    """Consecutive lines with the same fields make one table (a scenario's one-client series
    and its concurrent ones differ): [{"columns": [...], "rows": [[value per column]]}]."""
    tables = []
    for line in lines:
        fields = tuple(k for k in line if k not in _SCENARIO_SKIP)
        if not tables or tables[-1]["fields"] != fields:
            tables.append({"fields": fields, "lines": []})
        tables[-1]["lines"].append(line)
    out = []
    for table in tables:
        columns = scenario_columns(table["lines"])
        out.append({"columns": columns,
                    "rows": [[line.get(c) for c in columns] for line in table["lines"]]})
    return out


def _scenario_check(line, context):
    result = line.get("result", line) if isinstance(line, dict) else {}
    link = context.get("link") if isinstance(context.get("link"), dict) else {}
    return {"ok": result.get("ok"), "rtt_ms": result.get("rtt_median_ms"),
            "rtt_expected_ms": result.get("rtt_expected_ms"),
            "rtt_error_pct": result.get("rtt_error_pct"),
            "rate_mbps": result.get("ip_rate_mbps"),
            "configured_rate_mbps": result.get("configured_rate_mbps", link.get("rate_mbps")),
            "rate_error_pct": result.get("rate_error_pct"),
            "failure": result.get("failure") or None}


def scenario_data(scenario):
    """One `wirebench wire --scenario NAME` file (loaded as JSON) for the page: its
    scenario_result lines as tables, the self-check's RTT and rate, the calls and the ones
    that failed, and the other lines by kind."""
    context = scenario.get("context", {})
    requests = scenario.get("requests", [])
    failed = [r for r in requests if r.get("error") or r.get("checked") is False]
    errors = {}
    for r in failed:
        text = str(r.get("error") or "rows differ")
        errors[text] = errors.get(text, 0) + 1
    kinds = {}
    for line in scenario.get("other", []):
        kinds.setdefault(str(line.get("type", "?")), []).append(line)
    other = []
    for kind, lines in kinds.items():
        entry = {"type": kind, "count": len(lines)}
        if len(lines) <= SCENARIO_OTHER_ROWS:
            columns = list(dict.fromkeys(k for line in lines for k in line if k != "type"))
            entry.update(columns=columns, rows=[[line.get(c) for c in columns] for line in lines])
        other.append(entry)
    link = context.get("link") if isinstance(context.get("link"), dict) else {}
    status = scenario.get("exit_status")
    tail = scenario.get("stderr_tail") or []
    return {"scenario": scenario.get("scenario"), "file": scenario.get("file"),
            "date": context.get("date"), "commit": context.get("git_commit"),
            "rate_mbps": link.get("rate_mbps"), "rtt_ms": link.get("rtt_ms"),
            "exit_status": status, "why": tail[-1] if status and tail else None,
            "checks": [_scenario_check(c, context) for c in scenario.get("checks", [])],
            "tables": _scenario_tables(scenario.get("results", [])),
            "calls": len(requests), "failed_calls": len(failed),
            "errors": sorted(errors.items(), key=lambda e: -e[1])[:5], "other": other}


def scenarios_data(scenario_files):
    """Every scenario file for the page, in the order given, or None without any."""
    return [scenario_data(s) for s in scenario_files] if scenario_files else None


def build(result, links, conformance_matrix=None, wire_result=None, appendix_html="",
          scenario_files=None):
    """The page's data object (JSON-ready: NaN replaced by None). scenario_files: scenario
    files (`wirebench wire --scenario NAME`, loaded as JSON, each with its "file" name)."""
    pairings = model.collect(result)
    strings, by_case = _pairings(pairings)
    cases = sorted({tuple(key.split("/")) for key in by_case}, key=lambda c: (c[0], int(c[1])))
    default = None
    for dataset in DEFAULT_DATASETS:
        sizes_of = [int(rows) for d, rows in cases if d == dataset]
        if sizes_of:
            default = f"{dataset}/{max(sizes_of)}"
            break
    if default is None and cases:
        default = "/".join(cases[-1])
    names = [link.name for link in links]
    noisy_runs = noise.noisy(result)
    noisy_names = {name for name, _ in noisy_runs}
    size_entries = sizes(result)
    return clean({
        "result": result.path.rsplit("/", 1)[-1],
        "context": context_rows(result.context),
        "labels": labels.of(result).by_key,
        "links": [dataclasses.asdict(link) for link in links],
        "default_link": DEFAULT_LINK if DEFAULT_LINK in names else (names[0] if names else None),
        "cases": ["/".join(c) for c in cases],
        "default_case": default,
        "strings": strings,
        "pairings": by_case,
        "notes": pairings.notes,
        "throughput": throughput(result, noisy_names),
        "matrix": matrix(result),
        "parse_only": parse_only(result),
        "memory": memory(result),
        "sizes": size_entries,
        "published": published_sizes(size_entries),
        "conformance": conformance_data(conformance_matrix),
        "hostile": hostile(result),
        "noise": {"threshold": noise.THRESHOLD, "benchmarks": len(result.runs),
                  "noisy": [[name, cv] for name, cv in noisy_runs]},
        "failed": [[run.name.full, run.error] for run in result.failed()],
        "wire": wire_data(wire_result, names),
        "scenarios": scenarios_data(scenario_files),
        "appendix": appendix_html,
    })
