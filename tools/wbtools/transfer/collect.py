"""The pairings of a result file: every (format, serializer, parser, compression) of each
payload (dataset, rows) with its CPU parts and its bytes on the wire, read from the measured
benchmarks (the model that prices them: calls.py).

CPU parts are the benchmarks' figures (cpu_time by default) and, in a run in rounds, each
call's per-round CPU totals, from which calls.cpu_interval makes its 95 % interval. A
serializer whose bytes no parser decoded at its size borrows a stand-in writer's decode
times, scaled (collect's notes say so); a user's file (`bench --payload`) is sent as it is.
"""

import math
from dataclasses import dataclass, field, replace

from .. import results


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
