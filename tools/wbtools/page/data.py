"""The data a report page carries: everything its charts and tables draw, as one JSON object.

Times are seconds, sizes bytes, bandwidths bit/s; the page formats them. Every figure comes
from the result file (and the files beside it) through the same code REPORT.md uses, so the
page and `wirebench model` agree; the transfer model itself runs in the page (model.js).
"""

import dataclasses
import math
import statistics

from .. import labels, model, noise, published, results, stats

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
    return {"decoders": decoders, "files": files, "total_files": len(matrix_data["files"])}


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


def build(result, links, conformance_matrix=None, wire_result=None, appendix_html=""):
    """The page's data object (JSON-ready: NaN replaced by None)."""
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
        "appendix": appendix_html,
    })
