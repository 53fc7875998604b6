"""The transfer model: one call's time = encode + compress + transfer + decompress + decode.

CPU parts are the measured benchmarks' figures (cpu_time by default: on a shared VM real_time
also counts time the benchmark thread was descheduled): in a run in rounds the paired times
(wbtools/results/paired.py), with the call's 95 % interval from its per-round CPU totals, else the
medians. Two calls whose intervals overlap are tied (tied_with_fastest): the data cannot
rank them. The transfer part is
computed by tcp.transfer for a link profile. A pairing is one (format, serializer, parser,
compression) for one payload (dataset, rows).
"""

import math
from dataclasses import replace

from .. import stats
from . import tcp
# Re-exported: the callers read a result file's pairings as calls.collect and calls.Pairing(s).
from .collect import Pairing, Pairings, collect  # noqa: F401

# Datasets served as paged sequences: dataset -> (rows of a whole sequence, rows per page).
# science: an 8,100-row subset in pages of 1,000 rows = 8 full pages + one of 100 rows.
PAGED = {"science": (8100, 1000)}


def cpu_interval(p):
    """(low, high): the 95 % interval of a pairing's CPU (encode + compress + decompress +
    decode) over the rounds, widened where needed to hold its figure (a median of sums
    and a sum of medians differ a little); None without rounds or with fewer than 6. A
    call with a settled part has the min-max of the rounds it has (fewer than 6: a wider,
    lower-coverage interval, stats.min_max_interval)."""
    interval = stats.median_interval(p.cpu_rounds) if p.cpu_rounds else None
    if interval is None and p.settled:
        interval = stats.min_max_interval(p.cpu_rounds)
    if interval is None:
        return None
    cpu = p.encode + p.compress + p.decompress + p.decode
    return min(interval.low, cpu), max(interval.high, cpu)


def call(p, link, bandwidth_bps=None, connection=None):
    """Seconds of one call, split: encode, compress, wire, decompress, decode, hops_cpu,
    handshake_cpu, record_cpu, total.

    Each middleware hop decompresses, decodes, re-encodes and recompresses the payload
    (hops_cpu) and forwards it over one more warm connection (added to wire). A new TLS
    connection's handshake costs both ends CPU (handshake_cpu, from the stack's measurement),
    and so do sealing and opening the response's TLS records (record_cpu): CPU, not wire.
    """
    wire = tcp.transfer(p.wire_bytes, link, bandwidth_bps, connection)
    hops = link.middleware_hops
    hop_wire = hops * tcp.transfer(p.wire_bytes, link, bandwidth_bps, "warm")["total"]
    parts = {
        "encode": p.encode,
        "compress": p.compress,
        "wire": wire["total"] + hop_wire,
        "decompress": p.decompress,
        "decode": p.decode,
        "hops_cpu": hops * (p.decompress + p.decode + p.encode + p.compress),
        "handshake_cpu": wire["handshake_cpu"],
        "record_cpu": wire["record_cpu"],
        "round_trips": wire["round_trips"],
    }
    tls_cpu = parts["handshake_cpu"] + parts["record_cpu"]
    parts["cpu"] = (p.encode + p.compress + p.decompress + p.decode + parts["hops_cpu"]
                    + tls_cpu)
    parts["total"] = parts["cpu"] + parts["wire"]
    interval = cpu_interval(p)
    if interval is not None:
        parts["cpu_low"], parts["cpu_high"] = (v * (1 + hops) + tls_cpu for v in interval)
        parts["total_low"] = parts["cpu_low"] + parts["wire"]
        parts["total_high"] = parts["cpu_high"] + parts["wire"]
    parts["cpu_share"] = parts["cpu"] / parts["total"] if parts["total"] > 0 else math.nan
    parts["settled"] = bool(p.settled)
    return parts


def crossover(p, link, low=1e3, high=1e13, steps=240):
    """Bandwidth (bit/s) at which the call's wire time equals its CPU time, on this link.

    Wire time falls with bandwidth towards the latency floor (round trips), but slow start can
    add a round when the bandwidth-delay product grows, so it is not strictly monotonic: scan a
    log grid for the first bandwidth where wire <= CPU, then bisect. Returns (bandwidth, why):
    bandwidth None when no bandwidth in [low, high] makes wire as cheap as CPU.
    """
    def excess(bandwidth):
        parts = call(p, link, bandwidth)
        return parts["wire"] - parts["cpu"]

    grid = [low * (high / low) ** (i / steps) for i in range(steps + 1)]
    previous = None
    for bandwidth in grid:
        if excess(bandwidth) <= 0:
            if previous is None:
                return bandwidth, f"CPU > wire even at {low:.0f} bit/s"
            lo, hi = previous, bandwidth
            for _ in range(60):
                mid = math.sqrt(lo * hi)
                lo, hi = (lo, mid) if excess(mid) <= 0 else (mid, hi)
            return hi, ""
        previous = bandwidth
    floor = call(p, link, high)["wire"]
    return None, f"latency floor {floor * 1e3:.3g} ms > CPU"


def serialization_crossover(p):
    """Bandwidth at which bytes*8/bandwidth equals the CPU time, ignoring round trips."""
    cpu = p.encode + p.compress + p.decompress + p.decode
    return p.wire_bytes * 8 / cpu if cpu > 0 else math.nan


def rank(pairings, link):
    """[(pairing, call parts)] fastest first."""
    scored = [(p, call(p, link)) for p in pairings]
    return sorted(scored, key=lambda item: item[1]["total"])


def overlaps(a, b):
    """True when two calls' (call() parts) intervals of the total overlap."""
    if "total_low" not in a or "total_low" not in b:
        return False
    return a["total_low"] <= b["total_high"] and b["total_low"] <= a["total_high"]


def tied(a, b):
    """True when two calls' (call() parts) 95 % intervals of the total overlap: the data
    cannot tell which is faster. Calls without intervals are never tied, and neither is a
    call with a settled part: racing settled it because it lost its comparison by a margin
    (wbtools/transfer/race.py holds a run's settled calls apart from its fastest)."""
    if a.get("settled") or b.get("settled"):
        return False
    return overlaps(a, b)


def tied_with_fastest(ranked):
    """The entries of rank()'s list (after the first) tied with the fastest."""
    if not ranked:
        return []
    return [item for item in ranked[1:] if tied(ranked[0][1], item[1])]


def best_per_format(pairings, link):
    """The fastest pairing of each (format, compression) on link, fastest first."""
    best = {}
    for p, parts in rank(pairings, link):
        best.setdefault((p.format, p.compression), (p, parts))
    return sorted(best.values(), key=lambda item: item[1]["total"])


def fastest_per_format(pairings, link):
    """The fastest pairing of each format on link, whatever its compression, fastest first:
    the formats are those found in pairings, none assumed."""
    best = {}
    for p, parts in rank(pairings, link):
        best.setdefault(p.format, (p, parts))
    return list(best.values())


def _scaled(page, whole, fraction_rows, value_of):
    """Value for a short page: linear in rows from the 1000-row page and the whole-sequence
    payload when both are measured, else proportional to the 1000-row page."""
    small = value_of(page)
    if whole is None:
        return small * fraction_rows / page.rows
    per_row = (value_of(whole) - small) / (whole.rows - page.rows)
    return max(0.0, small + per_row * (fraction_rows - page.rows))


def paged_sequence(pairings, link):
    """Seconds to fetch each paged dataset's whole sequence, per pairing of its page size.

    Returns [(page pairing, total seconds, cpu seconds, how the last page was estimated)],
    fastest first. The first request uses the profile's connection state, the rest reuse it.
    """
    out = []
    for dataset, (total_rows, page_rows) in PAGED.items():
        pages = [p for p in pairings.items if p.dataset == dataset and p.rows == page_rows]
        wholes = {p.key: p for p in pairings.items if p.dataset == dataset and p.rows == total_rows}
        full_pages, rest = divmod(total_rows, page_rows)
        for page in pages:
            whole = wholes.get(page.key)
            last = None
            if rest:
                fields = ("wire_bytes", "encode", "decode", "compress", "decompress")
                last = replace(page, rows=rest, **{
                    name: _scaled(page, whole, rest, lambda x, n=name: getattr(x, n))
                    for name in fields})
            how = (f"{rest}-row page interpolated from the {page_rows}- and {total_rows}-row payloads"
                   if whole else f"{rest}-row page taken as {rest}/{page_rows} of a full page")
            requests = [page] * full_pages + ([last] if last else [])
            total = cpu = 0.0
            for index, request in enumerate(requests):
                parts = call(request, link, connection=None if index == 0 else "warm")
                total += parts["total"]
                cpu += parts["cpu"]
            out.append((page, total, cpu, how, len(requests)))
    return sorted(out, key=lambda item: item[1])
