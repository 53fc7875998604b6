"""The Markdown tables of a report: the page's "All tables" appendix, one section per table.

Every section works from what the result file holds: a format, dataset or counter that is
absent is skipped with a note, never guessed. report.py writes the page and REPORT.md.
"""

import math
import statistics

from . import depth, wcf
from ..results import labels, noise, standalone
from ..transfer import calls, model_view, published
from .. import results, units

# Sections list only these context keys first (the rest follow in a compact list).
_CONTEXT_FIRST = ("date", "host_name", "cpu_model", "kernel", "executable", "num_cpus",
                  "mhz_per_cpu", "cpu_pinned",
                  "compiler", "cxx_flags", "wirebench_build_type", "left_out", "library_build_type",
                  "simdjson_implementation", "simdjson_ondemand_implementation", "dataset_seed",
                  "git_commit", "glibc_tunables", "note")

# Benchmarks with a library and a payload: the throughput table lists them in this order.
_OPS = ("encode", "decode", "parse-only", "decode-new-parser", "decode-cold-cache", "route",
        "compress", "decompress")


def case_title(case):
    fmt, dataset, rows = case
    return f"{fmt}/{dataset}/{rows}"


def context_section(result):
    context = result.context
    rows = [[key, context[key]] for key in _CONTEXT_FIRST if key in context]
    libraries = sorted(key for key in context if key.startswith("library."))
    if libraries:
        rows.append(["libraries", ", ".join(f"{key[len('library.'):]} {context[key]}"
                                            for key in libraries)])
    load = context.get("load_avg")
    if isinstance(load, list):
        rows.append(["load average at start", ", ".join(f"{value:.2f}" for value in load)])
    if not rows:
        return "The result file carries no context.\n"
    return units.table(["context", "value"], rows, "ll") + "\n"


def failed_section(result):
    failed = result.failed()
    if not failed:
        return ""
    rows = [[f"`{run.name.full}`", run.error] for run in failed]
    return ("## Benchmarks that did not run\n\nA pairing that does not round-trip is not timed; "
            "these are left out of every table below.\n\n" +
            units.table(["benchmark", "reason"], rows, "ll") + "\n")


def sizes_by_case(result):
    """case -> {serializer: {"wire": bytes, "gzip": ..., ...}} from the encode counters."""
    out = {}
    for run in result.select(op="encode"):
        counters = {"wire": run.counter("wire_bytes")}
        for codec in results.CODECS:
            counters[codec] = run.counter(f"{codec}_bytes")
        if counters["wire"] is not None:
            out.setdefault(run.name.case, {})[run.name.library] = counters
    return out


def representative(sizes):
    """The reference writer's counters if measured, else those of the first serializer."""
    return sizes.get("reference") or sizes[sorted(sizes)[0]]


def published_section(result):
    sizes = sizes_by_case(result)
    rows = []
    for case, figure, source, comparison in published.SIZES:
        if case not in sizes:
            continue
        ours = representative(sizes[case])["wire"]
        rows.append([case_title(case), units.count(ours), units.count(figure), source,
                     published.verdict(ours, figure, comparison)])
    if not rows:
        return ("## Our sizes against the published figures\n\nNone of the payloads with a "
                "published size is in this result file.\n")
    missing = [case_title(case) for case, *_ in published.SIZES if case not in sizes]
    text = ("## Our sizes against the published figures\n\nThe sizes published for WCF Data "
            "Services, WCF SOAP and Azure Table storage; the target is within +-10 % (the "
            "reference writer's payload; KB read as 1,024 B).\n\n" +
            units.table(["payload", "ours (B)", "published (B)", "published figure", "verdict"],
                        rows, "lrrll") + "\n")
    if missing:
        text += f"\nNot in this result file: {', '.join(missing)}.\n"
    return text


def sizes_section(result):
    sizes = sizes_by_case(result)
    if not sizes:
        return "## Sizes\n\nNo encode benchmark carries a wire_bytes counter.\n"
    present = [codec for codec in results.CODECS
               if any(c.get(codec) is not None for s in sizes.values() for c in s.values())]
    rows = []
    for case in sorted(sizes):
        by_serializer = sizes[case]
        wires = [c["wire"] for c in by_serializer.values()]
        raw = units.count(min(wires)) if min(wires) == max(wires) else \
            f"{units.count(min(wires))}-{units.count(max(wires))}"
        rep = representative(by_serializer)
        rows.append([case_title(case), raw, units.count(rep["wire"] / case[2])] +
                    [f"{units.count(rep[c])} ({units.percent(rep[c] / rep['wire'], 0)})"
                     if rep.get(c) is not None else "-" for c in present])
    text = ("## Sizes\n\nBytes on the wire per payload (range over serializers when they differ); "
            "per row and compressed sizes from the reference writer's payload.\n\n" +
            units.table(["payload", "raw bytes", "bytes/row"] + [f"{c} bytes" for c in present],
                        rows) + "\n")
    if not present:
        text += "\nNo compressed-size counters in this file: compressed sizes not shown.\n"
    return text


def _memcpy_runs(result):
    return sorted((run.name.size, run) for run in result.select(format="reference", op="memcpy"))


def memcpy_fraction(run, memcpy_runs):
    """Throughput of run as a fraction of memcpy at the nearest measured size."""
    payload = run.counter("wire_bytes")
    throughput = run.throughput()
    if not memcpy_runs or not throughput:
        return None
    if payload is None:
        payload = throughput * run.median()
    size, nearest = min(memcpy_runs, key=lambda item: abs(math.log(item[0] / max(payload, 1))))
    reference = nearest.throughput()
    return throughput / reference if reference else None


def throughput_section(result):
    memcpy = _memcpy_runs(result)
    what = labels.of(result)
    rows, cells = [], []
    for case in result.cases():
        for op in _OPS:
            runs = result.select(format=case[0], dataset=case[1], rows=case[2], op=op)
            for run in sorted(runs, key=lambda r: (r.name.library, r.name.source)):
                low, high, cv = run.spread()
                library = run.name.library + (f" <- {run.name.source}" if run.name.source else "")
                faults = run.counter("minflt_per_iter")
                cells.append(what.of_name(run.name))
                rows.append([case_title(case), op, library, units.seconds(run.median()),
                             units.megabytes_per_second(run.throughput()),
                             "-" if math.isnan(low) else
                             f"{units.seconds(low)} - {units.seconds(high)}", units.percent(cv),
                             "-" if faults is None else f"{faults:.3g}",
                             units.percent(memcpy_fraction(run, memcpy), 2)])
    if not rows:
        return ""
    note = ("" if memcpy else "\nNo reference/memcpy benchmark in this file: the memcpy column "
            "is empty.\n")
    return ("## Throughput per library\n\nMedian cpu_time per call over the repetitions, MB/s of "
            "payload (10^6 B/s), the min-max range and the coefficient of variation over the "
            "repetitions, minor page faults per iteration, and the throughput as a fraction of "
            "memcpy at the nearest measured size (the physical limit).\n\n" +
            labels.table(what, ["payload", "operation", "library (<- input from)", "median",
                                "MB/s", "min - max", "CV", "minflt/iter", "of memcpy"], rows,
                         "lllrrrrrr", 3, cells) +
            "\n" + note)


def matrix_section(result):
    what = labels.of(result)
    parts = []
    for case in result.cases():
        runs = result.select(format=case[0], dataset=case[1], rows=case[2], op="decode")
        if not runs:
            continue
        sources = sorted({run.name.source or "(any)" for run in runs})
        parsers = sorted({run.name.library for run in runs})
        cells = {(run.name.library, run.name.source or "(any)"): run for run in runs}
        rows = []
        for parser in parsers:
            row = [parser]
            for source in sources:
                run = cells.get((parser, source))
                row.append(f"{units.megabytes_per_second(run.throughput())} MB/s "
                           f"({units.seconds(run.median())})" if run else "-")
            rows.append(row)
        fmt = case[0]
        table = labels.table(what, ["parser \\ serializer"] + sources, rows, None, 1,
                             [what.get(fmt, "decode", parser) for parser in parsers])
        writers = "".join(f"\n- serializer `{source}`: {what.cell(what.get(fmt, 'encode', source))}"
                          for source in sources if source != "(any)") if what else ""
        parts.append(f"**{case_title(case)}** (rows: parser, columns: serializer that wrote "
                     "the input; median MB/s and time per call)\n\n" + table + "\n" +
                     (writers + "\n" if writers else ""))
    if not parts:
        return "## Serializer x parser matrix\n\nNo decode benchmarks in this result file.\n"
    return "## Serializer x parser matrix\n\n" + "\n".join(parts)


def parse_only_section(result):
    what = labels.of(result)
    rows, cells = [], []
    for case, parse, matching in result.parse_only_pairs():
        cells.append(what.of_name(parse.name))
        if not matching:
            rows.append([case_title(case), parse.name.library,
                         units.seconds(parse.median()), "-", "-", "-", "-"])
            continue
        decode_time = statistics.median(run.median() for run in matching)
        share = 1 - parse.median() / decode_time if decode_time > 0 else math.nan
        # The noisier of the runs the ratio is made of: a ratio is only as good as it.
        cvs = (run.spread()[2] for run in [parse] + matching)
        noise = max((cv for cv in cvs if not math.isnan(cv)), default=math.nan)
        rows.append([case_title(case), parse.name.library, units.seconds(parse.median()),
                     units.seconds(decode_time), units.percent(share),
                     units.ratio(decode_time, parse.median()), units.percent(noise)])
    if not rows:
        return ""
    return ("## Parse-only against decode + bind\n\nThe library's own parse against the full "
            "decode into model records (median over the serializers' inputs); the difference "
            "is the binding. decode / parse is the cost of a decode in parses (the target for "
            "the XML parsers on atom/science/8100 is at most 1.5x); largest CV is the noisiest "
            "of the runs it is made of.\n\n" +
            labels.table(what, ["payload", "parser", "parse only", "decode + bind",
                                "binding share", "decode / parse", "largest CV"], rows,
                         "llrrrrr", 2, cells) + "\n")



def paged_section(pairings, links, what=None):
    """The paged sequences per link (fastest pairing of each format and compression)."""
    parts = []
    for link in links:
        paged = model_view.paged_table(pairings, link, best_only=True, labels=what)
        if paged:
            parts.append(f"### Link `{link.name}`: {model_view.link_summary(link)}\n\n{paged}\n")
    if not parts:
        return ""
    total_rows, page_rows = next(iter(calls.PAGED.values()))
    return (f"## Paged: {total_rows:,} rows in {page_rows:,}-row pages\n\nThe first request on "
            "the profile's connection, the rest warm.\n\n" + "\n".join(parts))


def relay_section(pairings):
    if not pairings.items:
        return ""
    return ("## relay-2009: the link fitted to the Azure figures\n\n" +
            model_view.relay_fit_section(pairings) + "\n")


# ---- REPORT.md: the summary ---------------------------------------------------------------


def tables(result, pairings, links, icounts=None, standalone_times=None, threads_result=None):
    """Every table of the run as Markdown: what the page's "All tables" section shows (the
    page draws the main ones as charts too)."""
    what = labels.of(result)
    sections = [context_section(result), labels.section(result), failed_section(result),
                noise.section(result), published_section(result), sizes_section(result),
                throughput_section(result), matrix_section(result), parse_only_section(result),
                standalone.section(standalone_times), wcf.section(result),
                depth.icount_section(result, icounts), depth.memory_section(result),
                depth.new_parser_section(result), depth.scaling_section(result),
                depth.threads_section(threads_result), paged_section(pairings, links, what),
                relay_section(pairings)]
    return "\n".join(section for section in sections if section)
