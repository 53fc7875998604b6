"""The transfer model as Markdown sections (printed by `wirebench model`, embedded in REPORT.md)
and as JSON (`wirebench model --json`)."""

import math
import statistics

from . import fit, calls, published
from ..results import labels as codec_labels
from .. import units


def link_summary(link):
    """One line describing a link profile's knobs."""
    knobs = [f"{units.bandwidth(link.bandwidth_bps)}", f"RTT {units.seconds(link.rtt_s)}",
             f"{link.connection} connection"]
    if link.stack:
        knobs.append(f"stack {link.stack}")
    if link.connection == "cold":
        knobs.append(f"handshake {link.tcp_handshake_rtts}+{link.tls_handshake_rtts} RTT")
    if link.auth_challenge:
        knobs.append("401 challenge +1 RTT")
    if link.delayed_ack_s:
        knobs.append(f"delayed-ACK stall {units.seconds(link.delayed_ack_s)}")
    if link.middleware_hops:
        knobs.append(f"{link.middleware_hops} middleware hop(s)")
    knobs.append(f"slow start IW {link.initial_window_segments}x{link.mss_bytes} B"
                 if link.slow_start else "no slow start (one round trip per request)")
    return ", ".join(knobs)


def _crossover_text(pairing, link):
    bandwidth, why = calls.crossover(pairing, link)
    if bandwidth is None:
        return "none (" + why + ")"
    return units.bandwidth(bandwidth) + (f" ({why})" if why else "")


def pairing_labels(what, p):
    """What a pairing's serializer and parser do, from the result's labels (labels.Labels)."""
    writer = what.cell(what.get(p.format, "encode", p.serializer))
    if not p.parser:
        return f"writer: {writer}"
    return f"writer: {writer}; reader: {what.cell(what.get(p.format, 'decode', p.parser))}"


def ranking_table(pairings, link, top=None, labels=None):
    """Ranking of pairings of one payload on link, fastest first; labels (labels.Labels of the
    result) adds what the serializer and parser do."""
    ranked = calls.rank(pairings, link)
    rows = []
    for index, (p, parts) in enumerate(ranked[:top] if top else ranked, start=1):
        rows.append([index, p.format, p.serializer, p.parser or "-", p.compression,
                     units.count(p.wire_bytes), parts["round_trips"], units.seconds(parts["cpu"]),
                     units.seconds(parts["wire"]), units.seconds(parts["total"]),
                     units.percent(parts["cpu_share"]), _crossover_text(p, link),
                     units.bandwidth(calls.serialization_crossover(p))])
    headers = ["#", "format", "serializer", "parser", "compression", "wire bytes", "RTTs", "CPU",
               "wire", "total", "CPU share", "CPU = wire at (this link)", "CPU = bytes/bw at"]
    cells = [pairing_labels(labels, p) for p, _ in ranked[:len(rows)]] if labels else []
    text = codec_labels.table(labels, headers, rows, "rllllrrrrrrll", 4, cells)
    if top and len(ranked) > top:
        text += f"\n\n({len(ranked) - top} slower pairings not shown)"
    return text


def paged_table(pairings, link, best_only=False, labels=None, top=None, per_format=False):
    """The paged sequences (science subset as 9 requests) on link, fastest first; best_only
    keeps the fastest pairing of each format and compression, per_format the fastest of each
    format; top keeps the first top rows; labels as in ranking_table."""
    sequences = calls.paged_sequence(pairings, link)
    if best_only or per_format:
        seen = set()

        def first(p):
            key = p.format if per_format else (p.format, p.compression)
            return key not in seen and not seen.add(key)

        sequences = [s for s in sequences if first(s[0])]
    if not sequences:
        return ""
    hidden = len(sequences) - top if top and len(sequences) > top else 0
    if hidden:
        sequences = sequences[:top]
    rows = [[p.format, p.serializer, p.parser or "-", p.compression, count, units.seconds(total),
             units.seconds(cpu), units.percent(cpu / total if total else math.nan)]
            for p, total, cpu, _, count in sequences]
    headers = ["format", "serializer", "parser", "compression", "requests", "total", "CPU",
               "CPU share"]
    notes = sorted({how for *_, how, _ in sequences})
    cells = [pairing_labels(labels, s[0]) for s in sequences] if labels else []
    return (codec_labels.table(labels, headers, rows, "llllrrrr", 3, cells) +
            (f"\n\n({hidden} slower sequences not shown)" if hidden else "") +
            "\n\nLast page: " + "; ".join(notes) + ".")


def model_sections(pairings, links, dataset=None, top=None):
    """Markdown for every link: the ranking per payload and the paged sequences."""
    out = []
    for link in links:
        out.append(f"### Link `{link.name}`: {link_summary(link)}\n")
        if link.description:
            out.append(f"{link.description}.\n")
        for ds, rows in pairings.cases():
            if dataset and ds != dataset:
                continue
            out.append(f"**{ds}, {rows} rows**, one call:\n")
            out.append(ranking_table(pairings.of_case(ds, rows), link, top) + "\n")
        paged = paged_table(_of_dataset(pairings, dataset), link, top=top)
        if paged:
            out.append(paged_heading() + ":\n")
            out.append(paged + "\n")
    return "\n".join(out)


def _of_dataset(pairings, dataset):
    return calls.Pairings([p for p in pairings.items if not dataset or p.dataset == dataset])


def paged_heading():
    """The paged sequence's bold lead: its rows, page size and connections."""
    total_rows, page_rows = next(iter(calls.PAGED.values()))
    return (f"**Paged sequence**: {total_rows:,} rows in pages of {page_rows:,} "
            "(first request on the profile's connection, the rest warm)")


def standing(index, parts, fastest):
    """A call's place against the payload's fastest: "fastest", "tied" (the two 95 %
    intervals overlap), "slower", "slower (settled)" (racing settled a part of it: its
    interval is its few rounds' min-max, and it is never tied), or "-" without intervals."""
    if index == 0:
        return "fastest"
    if parts.get("settled"):
        return "slower (settled)"
    if "total_low" not in parts or "total_low" not in fastest:
        return "-"
    return "tied" if calls.tied(parts, fastest) else "slower"


def _tied_text(ties, most=2):
    """The calls tied with a fastest one, by name up to most, then how many more; "-" for
    none."""
    if not ties:
        return "-"
    more = f" and {len(ties) - most} more" if len(ties) > most else ""
    # "; " between calls: a call's own label holds ", " before its compression.
    return "; ".join(call_label(q) for q, _ in ties[:most]) + more


def answer_table(pairings, links, dataset=None):
    """The short answer `wirebench model` leads with: per link and payload the fastest call,
    whatever its format, libraries and compression, and the calls tied with it (the data
    cannot rank those, so none is named the fastest alone). One row per link and payload."""
    rows = []
    for link in links:
        for ds, count in pairings.cases():
            if dataset and ds != dataset:
                continue
            ranked = calls.rank(pairings.of_case(ds, count), link)
            if not ranked:
                continue
            p, parts = ranked[0]
            rows.append([f"`{link.name}`", f"{ds} {count:,}", call_label(p),
                         units.seconds(parts["cpu"]), units.seconds(parts["wire"]),
                         units.seconds(parts["total"]), units.percent(parts["cpu_share"]),
                         _tied_text(calls.tied_with_fastest(ranked))])
    return units.table(["link", "payload", "fastest call", "CPU", "wire", "total", "CPU share",
                        "tied with"], rows, "lllrrrrl")


def links_list(links):
    """One line per link profile: its name and knobs."""
    return "\n".join(f"- `{link.name}`: {link_summary(link)}" for link in links)


def paged_answer_table(pairings, links, dataset=None):
    """Per link, the fastest paged sequence (the science subset as 9 requests); "" when the
    file holds no paged dataset's page."""
    rows = []
    for link in links:
        sequences = calls.paged_sequence(_of_dataset(pairings, dataset), link)
        if not sequences:
            continue
        p, total, cpu, _, count = sequences[0]
        rows.append([f"`{link.name}`", call_label(p), count, units.seconds(total),
                     units.seconds(cpu), units.percent(cpu / total if total else math.nan)])
    if not rows:
        return ""
    return units.table(["link", "fastest sequence", "requests", "total", "CPU", "CPU share"],
                       rows, "llrrrr")


def fastest_sections(pairings, links, dataset=None):
    """Markdown for every link: per payload, the fastest call of each format found in the
    file (whatever its libraries and compression), fastest first; then the paged sequence's
    fastest per format. The short answer `wirebench model` leads with."""
    headers = ["payload", "format", "serializer -> parser", "compression", "wire bytes", "CPU",
               "wire", "total", "CPU share", "against the fastest"]
    out = []
    for link in links:
        out.append(f"### Link `{link.name}`: {link_summary(link)}\n")
        rows = []
        for ds, count in pairings.cases():
            if dataset and ds != dataset:
                continue
            best = calls.fastest_per_format(pairings.of_case(ds, count), link)
            for index, (p, parts) in enumerate(best):
                rows.append([f"{ds} {count:,}", p.format,
                             f"{p.serializer} -> {p.parser or '(decode not measured)'}",
                             p.compression, units.count(p.wire_bytes),
                             units.seconds(parts["cpu"]), units.seconds(parts["wire"]),
                             units.seconds(parts["total"]), units.percent(parts["cpu_share"]),
                             standing(index, parts, best[0][1])])
        out.append(units.table(headers, rows, "llllrrrrrl") + "\n")
        paged = paged_table(_of_dataset(pairings, dataset), link, per_format=True)
        if paged:
            out.append(paged_heading() + ", the fastest of each format:\n")
            out.append(paged + "\n")
    return "\n".join(out)


def _page_bytes(pairings, fmt):
    """Our page size for fmt: the reference writer's, else the median over serializers."""
    sizes = {p.serializer: p.wire_bytes for p in pairings.items
             if (p.format, p.dataset, p.rows) == (fmt, "science", published.AZURE_PAGE_ROWS)
             and p.compression == "none"}
    if not sizes:
        return None, ""
    if "reference" in sizes:
        return sizes["reference"], "reference"
    return statistics.median(sizes.values()), "median of " + ", ".join(sorted(sizes))


def _subset_cpu(pairings, fmt):
    """CPU of the 9 pages with the fastest measured pairing (encode + decode, no compression)."""
    pages = [p for p in pairings.items
             if (p.format, p.dataset, p.rows) == (fmt, "science", published.AZURE_PAGE_ROWS)
             and p.compression == "none"]
    if not pages:
        return None, ""
    best = min(pages, key=lambda p: p.encode + p.decode)
    return published.AZURE_PAGES * (best.encode + best.decode), \
        f"{best.serializer}->{best.parser or '(no decoder)'}"


def relay_fit_section(pairings):
    """The relay-2009 fit and its prediction for our measured page sizes."""
    latency, bandwidth = fit.relay_2009()
    alt_latency, alt_bandwidth = fit.relay_2009(published.AZURE_DECIMAL)
    lines = [
        "Published for Azure Table storage: an 8,100-row subset as 9 paged requests took 55 s with "
        "Atom (> 1 MB per page) and 14 s with JSON (~163 KB per page). Reading 1 MB as "
        "1,048,576 B and 163 KB as 166,912 B, and each subset as 9 requests of the page size:",
        "",
        "    9 * latency + 9 * bytes * 8 / bandwidth = seconds   (once per format)",
        "",
        f"gives **latency {latency * 1e3:.1f} ms per request** and **bandwidth "
        f"{bandwidth / 1e6:.4g} Mbit/s** (decimal reading, 1,000,000 B and 163,000 B: "
        f"{alt_latency * 1e3:.1f} ms and {alt_bandwidth / 1e6:.4g} Mbit/s). Both are effective "
        "figures: the latency holds all per-request work of the 2009 client and service, the "
        "bandwidth all per-byte work, wire and CPU alike.",
        "",
    ]
    rows = []
    for fmt in ("atom", "json"):
        page_bytes, which = _page_bytes(pairings, fmt)
        published_bytes, published_seconds = published.AZURE[fmt]
        if page_bytes is None:
            rows.append([fmt, "not in this result file", units.count(published_bytes), "-",
                         f"{published_seconds:g} s", "-"])
            continue
        predicted = fit.subset_seconds(page_bytes, latency, bandwidth)
        cpu, pairing = _subset_cpu(pairings, fmt)
        rows.append([fmt, f"{units.count(page_bytes)} ({which})", units.count(published_bytes),
                     f"{predicted:.1f} s", f"{published_seconds:g} s",
                     f"{units.seconds(cpu)} ({pairing})"])
    lines.append(units.table(
        ["format", "our bytes per 1,000-row page", "published bytes per page",
         "predicted s per subset (fit, our size)", "published s per subset",
         "our CPU for 9 pages (fastest pairing)"], rows, "lrrrrl"))
    lines.append("\nThe last column is what this machine spends encoding and decoding the 9 pages: "
                 "compare it with the seconds to see how little of the published time CPU of "
                 "today's libraries would explain.")
    return "\n".join(lines)


def as_json(pairings, links, dataset=None):
    """Every pairing on every link, with the parts of one call (for scripts)."""
    out = {"notes": pairings.notes, "links": []}
    for link in links:
        entries = []
        ranked = calls.rank([p for p in pairings.items if not dataset or p.dataset == dataset],
                            link)
        fastest = {}
        for p, parts in ranked:
            fastest.setdefault((p.dataset, p.rows), parts)
        for p, parts in ranked:
            bandwidth, why = calls.crossover(p, link)
            first = fastest[(p.dataset, p.rows)]
            entries.append({
                "format": p.format, "dataset": p.dataset, "rows": p.rows,
                "serializer": p.serializer, "parser": p.parser or None,
                "compression": p.compression, "wire_bytes": p.wire_bytes,
                "seconds": {k: v for k, v in parts.items()
                            if k not in ("round_trips", "cpu_share", "settled")},
                "round_trips": parts["round_trips"], "cpu_share": parts["cpu_share"],
                "crossover_bps": bandwidth, "crossover_note": why or None,
                "serialization_crossover_bps": calls.serialization_crossover(p),
                # Against the payload's fastest call on this link: "fastest", "tied" (the
                # 95 % intervals of the totals overlap), "slower", or "-" without intervals.
                "standing": standing(0 if parts is first else 1, parts, first),
                # The call's benchmarks that racing settled (benchmarks/race.hpp).
                "settled": list(p.settled),
            })
        out["links"].append({"name": link.name, "bandwidth_bps": link.bandwidth_bps,
                             "rtt_s": link.rtt_s, "pairings": entries})
    out["answer"] = answer_json(pairings, links, dataset)
    latency, bandwidth = fit.relay_2009()
    out["relay_2009_fit"] = {"latency_s": latency, "bandwidth_bps": bandwidth}
    return out


def answer_json(pairings, links, dataset=None):
    """answer_table's rows for scripts: per link and payload the fastest call and the calls
    tied with it, each named by its format, serializer, parser and compression."""
    def name(p):
        return {"format": p.format, "serializer": p.serializer, "parser": p.parser or None,
                "compression": p.compression}

    out = []
    for link in links:
        for ds, count in pairings.cases():
            if dataset and ds != dataset:
                continue
            ranked = calls.rank(pairings.of_case(ds, count), link)
            if ranked:
                out.append({"link": link.name, "dataset": ds, "rows": count,
                            "fastest": name(ranked[0][0]),
                            "total_s": ranked[0][1]["total"],
                            "tied_with": [name(q) for q, _ in calls.tied_with_fastest(ranked)]})
    return out


def call_label(p):
    """A call as the headline names it: "json rapidjson-dom → simdjson-ondemand, zstd"."""
    suffix = "" if p.compression == "none" else f", {p.compression}"
    return f"{p.format} {p.serializer} → {p.parser or '(no decoder)'}{suffix}"


def headline_label(ranked, most=2):
    """The fastest call of rank()'s list, and the calls tied with it by name (up to most,
    then how many more): the data cannot rank those, so none is named the fastest alone."""
    label = call_label(ranked[0][0])
    ties = calls.tied_with_fastest(ranked)
    if ties:
        more = f" and {len(ties) - most} more" if len(ties) > most else ""
        label += f" (tied with {', '.join(call_label(q) for q, _ in ties[:most])}{more})"
    return label


def headline(pairings, links, dataset):
    """The README's headline table for dataset at its largest size: per link the fastest
    call (with the calls tied with it), its CPU, wire and CPU share, and the fastest
    uncompressed Atom call. "" when the dataset has no pairing."""
    sizes = [rows for ds, rows in pairings.cases() if ds == dataset]
    if not sizes:
        return ""
    case = pairings.of_case(dataset, max(sizes))
    rows = []
    for link in links:
        ranked = calls.rank(case, link)
        if not ranked:
            continue
        _, parts = ranked[0]
        atom = calls.rank([p for p in case if p.format == "atom" and p.compression == "none"],
                          link)
        rows.append([f"`{link.name}` {link_summary(link)}", headline_label(ranked),
                     units.seconds(parts["cpu"]), units.seconds(parts["wire"]),
                     units.percent(parts["cpu_share"]),
                     f"{units.seconds(atom[0][1]['total'])} "
                     f"({units.percent(atom[0][1]['cpu_share'])})" if atom else "-"])
    return units.table(["link profile", "fastest call", "CPU", "wire", "CPU share",
                        "uncompressed Atom: total (CPU share)"], rows, "llrrrr")
