"""The data a report page carries: everything its charts and tables draw, as one JSON object.

Times are seconds, sizes bytes, bandwidths bit/s; the page formats them. Every figure comes
from the result file (and the files beside it) through the same code REPORT.md uses, so the
page and `wirebench model` agree; the transfer model itself runs in the page (model.js).
"""

import dataclasses
import math
import statistics

from ..results import as_formats, conformance, labels, noise, paired, payload
from ..transfer import calls, published
from ..transfer import links as link_profiles
from .. import results, stats
from . import context, tags
from ..results import holds
# The scenario tables are built in wire_data; their helpers stay importable from here.
from .wire_data import scenario_columns, scenario_data, scenarios_data, wire_data  # noqa: F401

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


class _Settled:
    """The benchmarks a racing run settled (benchmarks/race.hpp), once each, for the page:
    [[name after its payload (op/library[/from:source]), rounds it ran, why]], which the
    throughput rows and the calls point into by index (a whole run settles ~2,000)."""

    def __init__(self, result):
        self.result, self.rows, self.index = result, [], {}

    def ref(self, name):
        if name not in self.index:
            run = self.result.runs[name]
            self.index[name] = len(self.rows)
            self.rows.append(["/".join(name.split("/")[3:]), run.settled["after"],
                              run.settled["by"]])
        return self.index[name]


def _call_coverage(p):
    """The coverage of a settled call's CPU interval (calls.cpu_interval): the 95 %-or-more
    order-statistic interval when its rounds give one, else their min-max's."""
    interval = stats.median_interval(p.cpu_rounds) or stats.min_max_interval(p.cpu_rounds)
    return interval.confidence if interval else None


def _pairings(pairings, settled):
    """Pairings per "dataset/rows" as rows of indices into one string table plus numbers."""
    strings, index = [], {}

    def ref(text):
        if text not in index:
            index[text] = len(strings)
            strings.append(text)
        return index[text]
    by_case = {}
    for p in pairings.items:
        # The CPU's 95 % interval over the rounds last (null without): the page calls two
        # calls whose intervals overlap tied (calls.tied).
        low, high = calls.cpu_interval(p) or (None, None)
        row = [ref(p.format), ref(p.serializer), ref(p.parser), ref(p.compression),
               p.wire_bytes, p.encode, p.decode, p.compress, p.decompress, low, high]
        if p.settled:
            # A call with a settled part: its interval's coverage (lower than 95 %: the
            # min-max of its few rounds), then its settled benchmarks. Never tied.
            row += [_call_coverage(p)] + [settled.ref(name) for name in p.settled]
        by_case.setdefault(f"{p.dataset}/{p.rows}", []).append(row)
    return strings, by_case


def _interval(run):
    """(low, high, kind, coverage) of a run's cpu figure: the paired interval of a run in
    rounds, the order-statistic interval of the median when there are enough repetitions,
    else min-max."""
    times = run.cpu
    interval = run.figure_interval()
    if interval:
        return interval.low, interval.high, "ci", interval.confidence
    if times:
        return min(times), max(times), "minmax", None
    return None, None, "none", None


def throughput(result, noisy, settled=None):
    """Per timed benchmark of a payload: median, interval, throughput, and its time against
    the fastest of its competitors (holds.ratios) with that ratio's 95 % interval. A
    competitor racing settled also has "settled" (its index in settled, a _Settled) and
    "ratio_coverage" (its ratio's interval is the min-max of its rounds: below 95 %)."""
    settled = settled or _Settled(result)
    out = []
    what = labels.of(result)
    against = holds.ratios(result)
    for key, run in result.runs.items():
        name = run.name
        if run.error or name.op not in THROUGHPUT_OPS or name.is_reference or name.threads != 1:
            continue
        median = run.figure()
        rate = run.throughput()
        payload = rate * median if rate and median and math.isfinite(median) else None
        low, high, kind, coverage = _interval(run)
        _, _, cv = run.spread()
        ratio = against.get(key, {})
        out.append({"case": _case_key(*name.case), "op": name.op, "library": name.library,
                    "source": name.source, "median": median, "low": low, "high": high,
                    "interval": kind, "coverage": coverage, "n": len(run.cpu), "cv": cv,
                    "bytes": payload, "noisy": name.full in noisy,
                    "labels": what.of_name(name), "fastest": ratio.get("fastest"),
                    "ratio": ratio.get("ratio"), "ratio_low": ratio.get("low"),
                    "ratio_high": ratio.get("high"), "verdict": ratio.get("verdict")})
        if run.settled:
            out[-1].update(settled=settled.ref(key), ratio_coverage=ratio.get("confidence"))
    return out


def holds_of(result, pairings):
    """holds.holds with the memory figures this module reads."""
    return holds.holds(result, pairings, memory(result))


def best_per_format(ranked):
    """The fastest call of each format from a ranking (calls.rank), fastest first: what the
    page leads with, so every format of the payload is in its first table."""
    best = {}
    for p, parts in ranked:
        best.setdefault(p.format, (p, parts))
    return list(best.values())


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
    # Per operation, fewest bytes allocated first: the table reads as a ranking.
    ops = ("decode", "encode", "decode-new-parser")
    return sorted(out, key=lambda m: (ops.index(m["op"]),
                                      m["total"] if m["total"] is not None else math.inf))


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


def build(result, links, conformance_matrix=None, wire_result=None, appendix_html="",
          scenario_files=None, pairings=None, verdict=None):
    """The page's data object (JSON-ready: NaN replaced by None). scenario_files: scenario
    files (`wirebench wire --scenario NAME`, loaded as JSON, each with its "file" name);
    pairings: calls.collect(result) when the caller has it; verdict: a payload run's
    verdict file (results.payload.load_verdict)."""
    pairings = calls.collect(result) if pairings is None else pairings
    settled = _Settled(result)
    strings, by_case = _pairings(pairings, settled)
    # Every payload the run times, with or without a pairing to model: a run of two decoders
    # has no encode, hence no pairing, and its page still shows them.
    cases = sorted({(run.name.dataset, str(run.name.rows)) for run in result.select()
                    if run.name.op in THROUGHPUT_OPS and run.name.dataset and run.name.rows
                    and not run.name.is_reference} | {tuple(key.split("/")) for key in by_case},
                   key=lambda c: (c[0], int(c[1])))
    modelled = [c for c in cases if "/".join(c) in by_case] or cases
    default = None
    for dataset in DEFAULT_DATASETS:
        sizes_of = [int(rows) for d, rows in modelled if d == dataset]
        if sizes_of:
            default = f"{dataset}/{max(sizes_of)}"
            break
    payload_files = payload.answer(result, verdict)
    if payload_files:
        # A payload run opens with its first file.
        default = payload_files[0]["case"]
    if default is None and modelled:
        default = "/".join(modelled[-1])
    names = [link.name for link in links]
    noisy_runs = noise.noisy(result)
    noisy_names = {name for name, _ in noisy_runs}
    size_entries = sizes(result)
    memory_entries = memory(result)
    in_rounds = paired.in_rounds(result.context)
    estimator = "cpu_time medians"
    if in_rounds:
        estimator = ("cpu_time paired times (each unit's probe's fast time × the median of "
                     "the per-round ratios to it; calls whose 95 % intervals overlap are tied"
                     + ("; racing stops a competitor that clearly lost after its first rounds: "
                        "it is marked settled, its interval is the min–max of those rounds, "
                        "at a lower coverage, and it is never tied" if "racing" in
                        result.context else "") + ")")
    return clean({
        "result": result.path.rsplit("/", 1)[-1],
        "estimator": estimator,
        "in_rounds": in_rounds,
        "context": context.rows(result.context),
        "warnings": context.warnings(result.context),
        "holds": holds.holds(result, pairings, memory_entries),
        "labels": labels.of(result).by_key,
        "tags": tags.of_labels(labels.of(result).by_key),
        "links": [dataclasses.asdict(link) for link in links],
        # The stacks the calculator can put every link on (links.json's "stacks").
        "stacks": {name: dataclasses.asdict(stack)
                   for name, stack in link_profiles.load_stacks().items()},
        "default_link": DEFAULT_LINK if DEFAULT_LINK in names else (names[0] if names else None),
        "cases": ["/".join(c) for c in cases],
        "default_case": default,
        "strings": strings,
        "pairings": by_case,
        "notes": pairings.notes,
        "throughput": throughput(result, noisy_names, settled),
        "settled": settled.rows,
        "matrix": matrix(result),
        "parse_only": parse_only(result),
        "memory": memory_entries,
        "sizes": size_entries,
        "published": published_sizes(size_entries),
        "conformance": conformance_data(conformance_matrix),
        "hostile": hostile(result),
        "noise": {"threshold": noise.THRESHOLD, "benchmarks": len(result.runs),
                  "noisy": [[name, cv] for name, cv in noisy_runs]},
        "failed": [[run.name.full, run.error] for run in result.failed()],
        "wire": wire_data(wire_result, names),
        "scenarios": scenarios_data(scenario_files),
        "payload": payload_files,
        "as_formats": as_formats.table(result),
        "appendix": appendix_html,
    })
