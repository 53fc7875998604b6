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
from dataclasses import dataclass, field, replace

from .. import results, stats
from . import tcp

# Datasets served as paged sequences: dataset -> (rows of a whole sequence, rows per page).
# science: an 8,100-row subset in pages of 1,000 rows = 8 full pages + one of 100 rows.
PAGED = {"science": (8100, 1000)}


@dataclass(frozen=True)
class Pairing:
    """One way of moving one payload: the CPU costs (seconds) and the bytes on the wire."""

    format: str
    dataset: str
    rows: int
    serializer: str
    parser: str  # "" when no decoder of this serializer's output was measured
    compression: str  # "none" or one of results.CODECS
    wire_bytes: float
    encode: float
    decode: float  # 0 when parser == ""
    compress: float = 0.0
    decompress: float = 0.0
    # A run in rounds: the call's CPU (encode + compress + decompress + decode) in each round
    # that timed every part, at the probe's fast speed; () otherwise. round_ids: those
    # rounds' ids (paired comparisons of two calls, wbtools/transfer/race.py).
    cpu_rounds: tuple = ()
    round_ids: tuple = ()
    # The decode benchmark whose times the call takes (a stand-in's, see collect); "".
    decoder_name: str = ""
    # The call's benchmarks that a racing run settled (benchmarks/race.hpp): their rounds
    # stopped early, so the call's interval is its rounds' min-max, and it is never called
    # tied with the fastest.
    settled: tuple = ()

    @property
    def label(self):
        parser = self.parser or "(decode not measured)"
        return f"{self.format} {self.serializer}->{parser} {self.compression}"

    @property
    def key(self):
        """Identity of the pairing independent of the payload size."""
        return (self.format, self.serializer, self.parser, self.compression)


@dataclass
class Pairings:
    """Every pairing found in a result file, plus notes on what was skipped."""

    items: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def cases(self):
        return sorted({(p.dataset, p.rows) for p in self.items})

    def of_case(self, dataset, rows):
        return [p for p in self.items if p.dataset == dataset and p.rows == rows]


def _median(run, clock):
    return run.figure(clock) if run is not None else math.nan


class _Scaled:
    """A decode run standing in for another serializer's bytes, its times scaled by what
    that serializer's bytes cost the same parser where both were timed (factor)."""

    def __init__(self, run, factor):
        self.run, self.factor = run, factor

    def figure(self, clock="cpu"):
        return self.run.figure(clock) * self.factor

    def round_times(self, clock="cpu"):
        return {r: t * self.factor for r, t in self.run.round_times(clock).items()}


def _source_factors(result, clock):
    """{(format, dataset, parser, serializer, stand-in): [(rows, factor)]}: at every size
    where a parser decoded both a serializer's bytes and the stand-in writer's, the ratio of
    its two times. The bytes differ beyond their records: a writer that spells a double
    with 20 significant digits (YAJL) costs a fast-path float parser several times the
    reference writer's shortest form."""
    by_case = {}
    for run in result.select(op="decode"):
        key = (run.name.format, run.name.dataset, run.name.rows, run.name.library)
        by_case.setdefault(key, {})[run.name.source] = run
    factors = {}
    for (fmt, dataset, rows, parser), sources in by_case.items():
        for stand_in, base in sources.items():
            for source, run in sources.items():
                if source != stand_in and base.figure(clock) > 0:
                    factors.setdefault((fmt, dataset, parser, source, stand_in), []).append(
                        (rows, run.figure(clock) / base.figure(clock)))
    return factors


def _nearest(found, rows):
    """The factor measured at the size nearest rows (by ratio), or None."""
    if not found:
        return None
    return min(found, key=lambda item: abs(math.log(item[0] / rows)))[1]


def _cpu_rounds(runs, clock):
    """{round_id: the sum of the runs' times in that round}, over the rounds every one of
    them has; {} when a run has none (a run not in rounds)."""
    per_run = [run.round_times(clock) for run in runs if run is not None]
    if not per_run or not all(per_run):
        return {}
    common = set.intersection(*(set(times) for times in per_run))
    return {r: sum(times[r] for times in per_run) for r in sorted(common)}


def _settled(runs):
    """The names of the runs a racing run settled."""
    return tuple(run.name.full for run in runs if run is not None and run.settled)


# A user's file (`bench --payload`) stands in for a dataset as "file:NAME"; its bytes are
# the rows field of its name.
PAYLOAD_PREFIX = "file:"
# The serializer of a user's file: its bytes are sent as they are, encoded by no one.
PAYLOAD_SERIALIZER = "file"


def _payload_pairings(result, case, clock):
    """A user's file's calls: its bytes as they are (encode 0), raw or through each
    compressor, read by each parser (decode through entity for a feed, else parse-only)."""
    runs = [run for run in result.select(**case) if not run.error and run.cpu]
    parsers = [run for run in runs if run.name.op == "decode"] or \
        [run for run in runs if run.name.op == "parse-only"]
    codec_runs = {(run.name.op, run.name.library): run for run in runs
                  if run.name.op in ("compress", "decompress")}
    items = []
    for parser in parsers:
        base = Pairing(case["format"], case["dataset"], case["rows"], PAYLOAD_SERIALIZER,
                       parser.name.library, "none", float(case["rows"]), 0.0,
                       _median(parser, clock))
        rounds = _cpu_rounds([parser], clock)
        base = replace(base, cpu_rounds=tuple(rounds.values()), round_ids=tuple(rounds),
                       decoder_name=parser.name.full, settled=_settled([parser]))
        items.append(base)
        for codec in results.CODECS:
            squeeze = codec_runs.get(("compress", codec))
            unsqueeze = codec_runs.get(("decompress", codec))
            packed = squeeze.counter("compressed_bytes") if squeeze else None
            if packed is None or unsqueeze is None:
                continue
            rounds = _cpu_rounds([parser, squeeze, unsqueeze], clock)
            items.append(replace(base, compression=codec, wire_bytes=packed,
                                 compress=_median(squeeze, clock),
                                 decompress=_median(unsqueeze, clock),
                                 cpu_rounds=tuple(rounds.values()), round_ids=tuple(rounds),
                                 settled=_settled([parser, squeeze, unsqueeze])))
    return items


def collect(result, clock="cpu"):
    """Build the pairings of a results.ResultFile."""
    out = Pairings()
    undecoded = []
    proxied = []
    unscaled = []
    factors = _source_factors(result, clock)
    for fmt, dataset, rows in result.cases():
        case = {"format": fmt, "dataset": dataset, "rows": rows}
        if dataset.startswith(PAYLOAD_PREFIX):
            out.items += _payload_pairings(result, case, clock)
            continue
        encoders = result.select(op="encode", **case)
        decoders = result.select(op="decode", **case)
        codec_runs = {(run.name.op, run.name.library): run
                      for run in result.select(**case) if run.name.op in ("compress", "decompress")}
        # The serializer whose bytes every parser decodes at sizes other than the field
        # size: the reference writer, or (a format without one, the binary formats) the
        # format's first encoder that the run decodes from.
        sources = {d.name.source for d in decoders}
        stand_in = "reference" if "reference" in sources else next(
            (e.name.library for e in encoders if e.name.library in sources), None)
        for encoder in encoders:
            size = encoder.counter("wire_bytes")
            if size is None:
                out.notes.append(f"{encoder.name.full}: no wire_bytes counter, left out of the model")
                continue
            parsers = [d for d in decoders if d.name.source in (encoder.name.library, "")]
            if not parsers:
                # The default run decodes every serializer's bytes at the field sizes only;
                # elsewhere a parser's time on the stand-in writer's (canonically equal)
                # bytes stands in, and the notes say so.
                parsers = []
                for d in decoders:
                    if d.name.source != stand_in:
                        continue
                    factor = _nearest(factors.get((fmt, dataset, d.name.library,
                                                   encoder.name.library, stand_in)), rows)
                    if factor is None and encoder.name.library != stand_in:
                        unscaled.append(f"{encoder.name.library}->{d.name.library}")
                    parsers.append(_Scaled(d, factor) if factor else d)
                (proxied if parsers else undecoded).append(encoder.name.full)
            for decoder in parsers or [None]:
                parser = decoder.run if isinstance(decoder, _Scaled) else decoder
                base = Pairing(fmt, dataset, rows, encoder.name.library,
                               parser.name.library if parser else "", "none", size,
                               _median(encoder, clock), _median(decoder, clock) if decoder else 0.0)
                rounds = _cpu_rounds([encoder, decoder], clock)
                base = replace(base, cpu_rounds=tuple(rounds.values()),
                               round_ids=tuple(rounds),
                               decoder_name=parser.name.full if parser else "",
                               settled=_settled([encoder, parser]))
                out.items.append(base)
                for codec in results.CODECS:
                    packed = encoder.counter(f"{codec}_bytes")
                    squeeze = codec_runs.get(("compress", codec))
                    unsqueeze = codec_runs.get(("decompress", codec))
                    if packed is None:
                        continue
                    if squeeze is None or unsqueeze is None:
                        out.notes.append(f"{fmt}/{dataset}/{rows}: {codec}_bytes present but no "
                                         f"compress/decompress benchmark for {codec}: left out")
                        continue
                    rounds = _cpu_rounds([encoder, decoder, squeeze, unsqueeze], clock)
                    out.items.append(replace(base, compression=codec, wire_bytes=packed,
                                             compress=_median(squeeze, clock),
                                             decompress=_median(unsqueeze, clock),
                                             cpu_rounds=tuple(rounds.values()),
                                             round_ids=tuple(rounds),
                                             settled=_settled([encoder, parser, squeeze,
                                                               unsqueeze])))
    if proxied:
        out.notes.append(f"{len(proxied)} serializers have no decode benchmark of their own bytes at "
                         "their size (the default run times every pairing at the field sizes "
                         "only; ./wirebench bench --full times all): their parsers' times on the "
                         "reference writer's bytes (a binary format's first encoder's) stand "
                         "in, scaled by the ratio the parser showed between the two writers' "
                         "bytes at the nearest size that timed both")
    if unscaled:
        out.notes.append(f"{len(unscaled)} stand-in pairings have no size that timed both "
                         "writers' bytes: unscaled")
    if undecoded:
        out.notes.append("no decode benchmark for the output of: " + ", ".join(undecoded) +
                         " - their decode time counts as 0 (the ranking favours them)")
    if not any(p.compression != "none" for p in out.items):
        out.notes.append("no compression counters/benchmarks in this file: compression 'none' only")
    out.notes = list(dict.fromkeys(out.notes))
    return out


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
