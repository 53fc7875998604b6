"""The paired figures of a run timed in rounds (benchmarks/rounds.hpp).

In a run in rounds every iteration entry carries `round` (the round of its unit),
`round_id` (the round in the whole run), `round_slot` (its place in the round's sequence)
and `paired_reference` (1 on the unit's probe, the byte scan of its JSON payload, which
runs between every few competitors). From them:

- `paired_ratio` on each competitor's entry: its time over the probe's beside it in the
  same round (the geometric mean of the probe runs just before and just after it, or the
  one at an end of the round). A slow window of the machine that moves a competitor moves
  the probes beside it too, so the ratio holds still where the time does not.
- one aggregate entry per benchmark, `aggregate_name` "paired": `cpu_time` and `real_time`
  are the probe's fast time (the minimum of all its runs in the unit, FAST_QUANTILE: a
  time from the machine's fast windows, which are most of its time) times the median of
  the benchmark's per-round ratios, and `paired_ratio`, `paired_ratio_low`,
  `paired_ratio_high`, `paired_confidence` are that median and its distribution-free
  95 % interval over the rounds (the sign test's, stats.median_interval: 6 rounds or
  more), `paired_probe` the probe's name and `paired_probe_time` its fast time.
- the aggregates Google Benchmark writes after repetitions (mean, median, stddev, cv),
  which one call per round does not produce.
- a competitor a racing run settled (benchmarks/race.hpp: counter `settled_after`, the
  label "settled_by: why") gets `settled_after` and `settled_by` on its entries and its
  paired entry, whose interval is then its rounds' min-max with the coverage that has
  (stats.min_max_interval: 75 % for 3 rounds), wider than a contender's 95 %.

docs/methodology.md ("Rounds") says why these estimators and with what data.
"""

import math
import statistics

from .. import stats

PROBE = "paired_reference"
ROUND_FIELDS = ("round", "round_id", "round_slot", PROBE, "paired_ratio")
# The probe's fast time: this quantile of its runs (0: the minimum). The machine's slow
# windows take up to a third of a run's time and a time cannot fall below the machine's
# fastest, so with the dozens of probe runs a unit has the minimum is the fast windows'
# time; between two runs it moved least of the minimum, the 10th percentile and the median
# (docs/methodology.md, "The paired figures").
FAST_QUANTILE = 0.0
_CLOCKS = ("cpu_time", "real_time")


def in_rounds(context):
    """True for a result written by the rounds (context run_design)."""
    return str((context or {}).get("run_design", "")) == "rounds"


def _iterations(entries):
    return [e for e in entries if e.get("run_type", "iteration") == "iteration"
            and not e.get("error_occurred") and "round_id" in e]


SETTLED_LABEL = "settled_by: "


def settled_fields(entries):
    """Moves a settled competitor's reason from Google Benchmark's label into settled_by,
    in place."""
    for entry in entries:
        label = entry.get("label", "")
        if isinstance(label, str) and label.startswith(SETTLED_LABEL):
            entry["settled_by"] = label[len(SETTLED_LABEL):]
            del entry["label"]


def renumber(parts):
    """Makes round_id unique across parts (each process counts from 0), in place."""
    offset = 0
    for entries in parts:
        ids = [int(e["round_id"]) for e in _iterations(entries)]
        for entry in _iterations(entries):
            entry["round_id"] = int(entry["round_id"]) + offset
        offset += max(ids, default=-1) + 1


def _near_probe(probes, slot, clock):
    """The probe time beside slot: geometric mean of the nearest probe before and after."""
    before = [p for p in probes if p["round_slot"] < slot]
    after = [p for p in probes if p["round_slot"] > slot]
    near = ([before[-1]] if before else []) + ([after[0]] if after else [])
    values = [p[clock] * _seconds_scale(p.get("time_unit", "ns")) for p in near if p[clock] > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def pair(entries):
    """Writes paired_ratio (cpu) and paired_ratio_real into every competitor entry, in
    place; entries without a probe in their round get none."""
    rounds = {}
    for entry in _iterations(entries):
        rounds.setdefault(entry["round_id"], []).append(entry)
    for members in rounds.values():
        probes = sorted((e for e in members if e.get(PROBE)), key=lambda e: e["round_slot"])
        if not probes:
            continue
        for entry in members:
            if entry.get(PROBE):
                continue
            for clock, field in (("cpu_time", "paired_ratio"), ("real_time", "paired_ratio_real")):
                near = _near_probe(probes, entry["round_slot"], clock)
                if near:
                    entry[field] = entry[clock] * _seconds_scale(entry.get("time_unit", "ns")) / near


def quantile(values, q):
    """The nearest-rank q quantile of values (q in [0, 1])."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def _base(first, name, aggregate, unit="time"):
    return {"name": f"{name}_{aggregate}", "family_index": first.get("family_index", 0),
            "per_family_instance_index": first.get("per_family_instance_index", 0),
            "run_name": name, "run_type": "aggregate", "repetitions": 0, "threads": 1,
            "aggregate_name": aggregate, "aggregate_unit": unit,
            "iterations": 0, "time_unit": first.get("time_unit", "ns")}


def _statistics(name, runs):
    """mean, median, stddev and cv entries of one benchmark's runs, as Google Benchmark
    writes them."""
    out = []
    n = len(runs)
    functions = {
        "mean": statistics.fmean,
        "median": statistics.median,
        "stddev": lambda v: statistics.stdev(v) if len(v) > 1 else 0.0,
        "cv": lambda v: (statistics.stdev(v) / statistics.fmean(v)
                         if len(v) > 1 and statistics.fmean(v) else 0.0),
    }
    for aggregate, function in functions.items():
        entry = _base(runs[0], name, aggregate, "percentage" if aggregate == "cv" else "time")
        entry.update(repetitions=n, iterations=n)
        for clock in _CLOCKS:
            entry[clock] = function([r[clock] for r in runs])
        out.append(entry)
    return out


def _paired_entry(name, runs, probe_name, probe_fast):
    """The paired aggregate of one competitor, or None without ratios."""
    entry = _base(runs[0], name, "paired")
    ratios = [r["paired_ratio"] for r in runs if "paired_ratio" in r]
    if not ratios or not probe_fast:
        return None
    median = statistics.median(ratios)
    entry.update(repetitions=len(ratios), iterations=len(ratios),
                 cpu_time=probe_fast["cpu_time"] * median, paired_ratio=median,
                 paired_probe=probe_name, paired_probe_time=probe_fast["cpu_time"])
    real = [r["paired_ratio_real"] for r in runs if "paired_ratio_real" in r]
    entry["real_time"] = probe_fast["real_time"] * statistics.median(real) if real else math.nan
    interval = stats.median_interval(ratios)
    settled = next((r for r in runs if r.get("settled_after")), None)
    if settled is not None:
        entry.update(settled_after=int(settled["settled_after"]),
                     settled_by=settled.get("settled_by", ""))
        if interval is None:
            interval = stats.min_max_interval(ratios)
    if interval is not None:
        entry.update(paired_ratio_low=interval.low, paired_ratio_high=interval.high,
                     paired_confidence=interval.confidence)
    return entry


def _seconds_scale(unit):
    return {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def aggregates(entries):
    """The aggregate entries of a run in rounds, benchmark by benchmark in file order:
    mean, median, stddev, cv and, for a competitor with a probe, paired."""
    by_name, probe_of_round = {}, {}
    for entry in _iterations(entries):
        by_name.setdefault(entry.get("run_name", entry["name"]), []).append(entry)
        if entry.get(PROBE):
            probe_of_round[entry["round_id"]] = entry.get("run_name", entry["name"])
    fast = {}
    for name in set(probe_of_round.values()):
        runs = by_name[name]
        scale = _seconds_scale(runs[0].get("time_unit", "ns"))
        fast[name] = {clock: quantile([r[clock] for r in runs], FAST_QUANTILE) * scale
                      for clock in _CLOCKS}
    out = []
    for name, runs in by_name.items():
        out += _statistics(name, runs)
        probe = next((probe_of_round[r["round_id"]] for r in runs
                      if r["round_id"] in probe_of_round), None)
        if probe is None or probe == name:
            continue
        scale = _seconds_scale(runs[0].get("time_unit", "ns"))
        in_unit = {clock: seconds / scale for clock, seconds in fast[probe].items()}
        paired = _paired_entry(name, runs, probe, in_unit)
        if paired:
            out.append(paired)
    return out


def ratio_of(numerator, denominator, settled=False):
    """Two competitors of one unit compared round by round: (median of the per-round ratios
    numerator/denominator, their stats.median_interval or None), from each one's
    {round_id: ratio to the probe}; None when they share no round. settled: the numerator
    was settled by racing (benchmarks/race.hpp) and ran too few rounds for 95 %: the
    interval is then the ratios' min-max, with its lower coverage (stats.min_max_interval)."""
    common = sorted(set(numerator) & set(denominator))
    ratios = [numerator[r] / denominator[r] for r in common if denominator[r] > 0]
    if not ratios:
        return None
    interval = stats.median_interval(ratios)
    if interval is None and settled:
        interval = stats.min_max_interval(ratios)
    return statistics.median(ratios), interval
