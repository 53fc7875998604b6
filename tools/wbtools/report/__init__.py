"""The report of one result file: report.html (the page a person reads), a short REPORT.md
that a terminal or a repository browser shows whole, and the time-split SVG charts.

REPORT.md is a summary; the page's "All tables" appendix holds the Markdown tables
(report_tables.py) that it does not draw as charts.
"""

import os


from ..results import holds
from ..cli import result_stem
from . import charts
from ..results import as_formats, conformance, noise, paired, payload
from ..transfer import calls, model_view, published
from .. import units
from ..page import build as page_build, data as page_data, markdown
from .report_tables import case_title, representative, sizes_by_case, tables

PAGE = "report.html"
# The old charts of time against bandwidth: the page draws that chart now (with a colour
# and a marker per pairing); a report written again removes them.
_STALE_CHARTS = "bandwidth-"

_SUMMARY_CONTEXT = ("cpu_model", "num_cpus", "cpu_pinned", "kernel", "compiler", "cxx_flags",
                    "wirebench_build_type", "left_out", "git_commit", "date", "run_kind",
                    "dataset_seed")


def _summary_context(result):
    context = result.context
    rows = [[key, str(context[key])] for key in _SUMMARY_CONTEXT if key in context]
    libraries = sorted(key for key in context if key.startswith("library.") and
                       key.count(".") == 1)
    if libraries:
        rows.append(["libraries", ", ".join(f"{key[len('library.'):]} {context[key]}"
                                            for key in libraries)])
    return units.table(["context", "value"], rows, "ll") if rows else \
        "The result file carries no context."


def _headline(pairings, links):
    """Per dataset at its largest size: the fastest call on every link."""
    largest = {}
    for dataset, rows in pairings.cases():
        largest[dataset] = max(rows, largest.get(dataset, 0))
    parts = []
    for dataset in sorted(largest):
        rows = largest[dataset]
        table_rows = []
        for link in links:
            ranked = calls.rank(pairings.of_case(dataset, rows), link)
            if not ranked:
                continue
            _, call = ranked[0]
            # Calls the data cannot rank are named as tied, not placed.
            table_rows.append([f"`{link.name}`", model_view.headline_label(ranked),
                               units.seconds(call["cpu"]),
                               units.seconds(call["wire"]), units.seconds(call["total"]),
                               units.percent(call["cpu_share"])])
        if table_rows:
            parts.append(f"**{dataset}, {rows:,} rows**\n\n" + units.table(
                ["link", "fastest call", "CPU", "wire", "total", "CPU share"], table_rows,
                "llrrrr"))
    return "\n\n".join(parts)


def _findings(result, pairings, conformance_matrix):
    """The biggest findings, one line each."""
    lines = []
    # The widest spread of decode throughput per payload: the library decides by this much.
    spreads = []
    for case in result.cases():
        runs = [run for run in result.select(op="decode", format=case[0], dataset=case[1],
                                             rows=case[2])
                if run.name.source in ("reference", "") and run.median() > 0]
        if len(runs) >= 2:
            fast = min(runs, key=lambda r: r.median())
            slow = max(runs, key=lambda r: r.median())
            spreads.append((slow.median() / fast.median(), case, fast, slow))
    for ratio, case, fast, slow in sorted(spreads, key=lambda s: -s[0])[:3]:
        lines.append(f"- Decoding {case_title(case)}: {fast.name.library} takes "
                     f"{units.seconds(fast.median())}, {slow.name.library} "
                     f"{units.seconds(slow.median())} ({ratio:.1f}x).")
    sizes = sizes_by_case(result)
    checked = [(case, figure, comparison) for case, figure, _, comparison in published.SIZES
               if case in sizes]
    if checked:
        ok = sum(published.verdict(representative(sizes[c])["wire"], f, k).startswith("ok")
                 for c, f, k in checked)
        lines.append(f"- Sizes: {ok} of {len(checked)} payloads with a published size match it "
                     "(within 10 %, or above it where the source says \"more than\").")
    cases = noise.noisy(result)
    if cases:
        lines.append(f"- Noise: {len(cases)} of {units.count(len(result.runs))} benchmarks have "
                     f"a CV above {noise.THRESHOLD:.0%}; the noisiest is `{cases[0][0]}` "
                     f"({units.percent(cases[0][1])}). The page lists them.")
    failed = result.failed()
    if failed:
        lines.append(f"- {len(failed)} benchmarks did not run (a pairing that does not "
                     "round-trip is not timed); the page lists them.")
    if conformance_matrix:
        decoders = conformance_matrix["decoders"]
        off = [d["library"] for d in decoders
               if d["y_accepted"] < d["y_total"] or d["n_rejected"] < d["n_total"]
               or d["crashed"] or d["decode_n_rejected"] < d["n_total"]]
        lines.append(f"- JSON conformance: {len(decoders) - len(off)} of {len(decoders)} "
                     "decoders give the expected answer on every y_ and n_ file of "
                     + conformance.corpus_name(conformance_matrix)
                     + (f"; departing: {', '.join(off)}." if off else "."))
    lines += [f"- Model note: {note}" for note in pairings.notes]
    return "\n".join(lines)


# REPORT.md lists at most this many questions of a focused run; the page has them all.
_QUESTIONS = 12


def _competitors(result):
    """A focused run's competitors per question: each against the fastest, with the ratio's
    95 % interval (holds.ratios); "" when no question has two. A competitor racing settled
    has its own interval, labelled with its lower coverage, and is never called tied."""
    parts = []
    for (fmt, dataset, rows, op, source), members in holds.questions(result)[:_QUESTIONS]:
        table_rows = []
        for run, entry in members:
            low, high = entry.get("low"), entry.get("high")
            settled = entry["verdict"] == "settled"
            interval = f"{low:.2f} - {high:.2f}" if low is not None else "-"
            if settled and low is not None:
                interval += f" ({units.percent(entry['confidence'], 0)})"
            table_rows.append([run.name.library, units.seconds(run.median()),
                               f"{entry['ratio']:.2f}x", interval,
                               f"settled after {entry['settled_after']} rounds" if settled
                               else entry["verdict"]])
        title = f"**{fmt}/{dataset}/{rows} {op}**" + (f" (input: {source})" if source else "")
        parts.append(title + "\n\n" + units.table(
            ["library", "median", "x fastest", "95 % interval", "verdict"], table_rows,
            "lrrrl"))
    return "\n\n".join(parts)


def _payload_answer(files):
    """The answer for a payload run's files: the fastest parser of each, ties called, then
    every parser's verdict and the sizes."""
    parts = []
    for entry in files:
        rows = []
        for p in entry["parsers"]:
            interval = f"{p['low']:.2f} - {p['high']:.2f}" if p["low"] is not None else "-"
            error = p["error"] + (f" (byte {p['offset']})" if p["offset"] >= 0 and
                                  f"byte {p['offset']}" not in p["error"] else "")
            # One table row: a library's message may hold line breaks (JsonCpp's) or a '|'.
            error = " ".join(error.split()).replace("|", "\\|")
            rows.append([p["library"],
                         units.seconds(p["time"]) if p["time"] is not None else "not timed",
                         f"{p['ratio']:.2f}x" if p["ratio"] is not None else "-", interval,
                         p["verdict"],
                         f"{p['peak']:,.0f} B" if p.get("peak") is not None else "-",
                         f"{p['allocs']:,.0f}" if p.get("allocs") is not None else "-",
                         p["outcome"] + (f": {error}" if error else "") +
                         (f": `{p['values']}`".replace("|", "\\|") if p.get("values") else ""),
                         (p["mark"] or "").replace("|", "\\|")])
        sizes = ", ".join(f"{codec} {size:,} B" for codec, size in entry["sizes"])
        parts.append(f"**{payload.headline(entry)}.**\n\n`{entry['format']}/file:"
                     f"{entry['name']}/{entry['bytes']}`, SHA-256 `{entry['sha256']}`; sizes: "
                     f"{sizes}.\n\n" + units.table(
                         ["library", "time", "x fastest", "95 % interval", "timing",
                          "peak heap", "allocations", "verdict", "marked"], rows,
                         "lrrrlrrll"))
    return "\n\n".join(parts)


def summary(result, pairings, links, conformance_matrix, chart_name, verdict=None):
    name = result_stem(os.path.basename(result.path))
    held = page_data.holds_of(result, pairings)
    files = payload.answer(result, verdict)
    opening = ["## The answer for your payload", "",
               "Per file: the fastest parser, and every parser whose paired 95 % interval "
               "against it holds 1 (tied); each parser's verdict (accepted, or rejected with "
               "the library's error and byte offset; a rejected file is not timed for that "
               "library); the file's size raw and after each compressor. The page prices "
               "each parser and compressor on every link (docs/payload.md).", "",
               _payload_answer(files), ""] if files else []
    feeds = as_formats.markdown(as_formats.table(result))
    if feeds:
        opening += [feeds, ""]
    text = [f"# wirebench report: {name}", ""] + opening + [
            f"**Open [`{PAGE}`]({PAGE})** (one file, works from disk with no network): pick a "
            "dataset, a size and a link profile or your own bandwidth and RTT, and it ranks "
            "every pairing (format, serializer, parser, compression) by end-to-end time, then "
            "shows the evidence as charts: throughput with intervals, the serializer x parser "
            "heat map, decode against parse-only, memory, sizes, conformance, the machine and "
            "the noise.", "",
            f"Result file `{os.path.basename(result.path)}`; times are "
            + ("cpu_time paired times (the unit's probe's fast time x the median of the "
               "per-round ratios to it; calls whose 95 % intervals overlap are tied)"
               if paired.in_rounds(result.context) else "cpu_time medians over the repetitions")
            + "; the transfer is modelled per link profile (tools/links.json).", "",
            "## What this run holds", "", holds.text(held), "",
            "## Context", "", _summary_context(result), "",
            "## The answer per dataset", "",
            "The fastest call (encode + compress + wire + decompress + decode) on each link "
            "profile, at each dataset's largest size:", "",
            _headline(pairings, links) if pairings.items else
            "No encode benchmark with a wire_bytes counter: nothing to model.", ""]
    if chart_name:
        text += [f"![{chart_name[0]}]({chart_name[1]})", ""]
    competitors = "" if held["whole_suite"] else _competitors(result)
    if competitors:
        text += ["## The competitors side by side", "",
                 "Each library's cpu time against the fastest's: "
                 + ("the median of the two's ratios round by round and that median's 95 % "
                    "interval (order statistics)" if paired.in_rounds(result.context) else
                    "the median of the pairwise ratios of their repetitions and its 95 % "
                    "interval (the one the Mann-Whitney U-test inverts)")
                 + "; an interval that holds 1 is a tie."
                 + (" A competitor settled by racing (it lost its comparison by a margin in "
                    "each of its first rounds, and took no more) has the min-max of its "
                    "rounds' ratios for an interval, at the lower coverage shown beside it, "
                    "and is never called tied." if "settled after" in competitors else ""),
                 "", competitors, ""]
    findings = _findings(result, pairings, conformance_matrix)
    if findings:
        text += ["## Findings", "", findings, ""]
    return "\n".join(text)


def write(result, links, out_dir, chart_link_name="loopback", threads_result=None, icounts=None,
          conformance_matrix=None, standalone_times=None, wire_result=None,
          scenario_files=None, verdict=None):
    """Write report.html, REPORT.md and the time-split charts into out_dir; return the
    REPORT.md path. threads_result (a --threads result file), icounts (depth.load_icount),
    conformance_matrix (conformance.load), standalone_times (standalone.load), wire_result
    (a `wirebench wire --matrix` file, as JSON), scenario_files (`wirebench wire --scenario`
    files, as JSON, each with its "file" name) and verdict (a payload run's verdict file,
    results.payload.load_verdict) add their sections when given.
    chart_link_name is kept for callers that name it: the page draws time against bandwidth
    for any link."""
    os.makedirs(out_dir, exist_ok=True)
    pairings = calls.collect(result)
    data = page_data.build(result, links, conformance_matrix, wire_result, markdown.to_html(
        tables(result, pairings, links, icounts, standalone_times, threads_result)),
        scenario_files, pairings, verdict)
    name = result_stem(os.path.basename(result.path))
    page_build.write(os.path.join(out_dir, PAGE), data, name)
    chart = None
    for dataset, rows in pairings.cases():
        chart_file = f"time-split-{dataset}-{rows}.svg"
        charts.stacked(pairings, links, dataset, rows, os.path.join(out_dir, chart_file))
        if data["default_case"] == f"{dataset}/{rows}":
            chart = (f"{dataset}, {rows} rows: where one call's time goes, per link profile",
                     chart_file)
    for stale in os.listdir(out_dir):
        if stale.startswith(_STALE_CHARTS) and stale.endswith(".svg"):
            os.remove(os.path.join(out_dir, stale))
    path = os.path.join(out_dir, "REPORT.md")
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(summary(result, pairings, links, conformance_matrix, chart, verdict))
    os.replace(path + ".tmp", path)
    return path
