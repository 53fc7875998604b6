"""Racing rounds (benchmarks/race.hpp) applied to a result file.

The benchmark process settles a competitor that has clearly lost its comparison: after a
first block of rounds (FIRST_BLOCK), competitor X of a group (one format, dataset, size and
operation, and for a decode the serializer) is settled when in every round so far

    t_X - t_L > margin * base

t being a round's CPU time over the unit's probe beside it (paired.py's per-round ratio), L
the group's leader by median, and base what the comparison is about (race.hpp says which).
This module applies the same rule to the per-round data of a result file:

- simulate(result): which competitors the rule settles, and after which round, as if the
  run had raced: on a run made with --no-race it tells what racing would have left out;
- check(result): on a racing run, the decisions the process recorded (settled_after) against
  the rule applied to the same data;
- in_answer(result): the benchmarks that take part in the model's fastest call, or in a call
  tied with it, on any link profile, warm or cold: what racing must never settle.
"""

import math
import statistics
from dataclasses import dataclass, field

from . import calls

FIRST_BLOCK = 3
MARGIN = 0.25
NOT_RACED = ("compress", "decompress")


@dataclass(frozen=True)
class Rule:
    first_block: int = FIRST_BLOCK
    margin: float = MARGIN


@dataclass
class Racer:
    name: str
    case: tuple  # (format, dataset, rows)
    op: str
    library: str
    source: str
    times: list  # per round of the unit, None where it did not run
    digest: object = None  # an encoder's wire_digest
    settled_after: int = 0  # recorded by the run (0: not settled)
    settled_by: str = ""

    @property
    def group(self):
        return (*self.case, self.op, self.source)


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def units(result):
    """{unit: [Racer]} of a run in rounds: every competitor (not the probes) with its
    per-round times over the probe, rounds numbered from 0 within the unit."""
    by_unit = {}
    for run in result.runs.values():
        # The rule races {format}/{dataset}/{rows}/{op}/{library} names: not the reference
        # loops (reference/byte-scan/N), which no group holds.
        if run.probe or run.error or not run.ratios["cpu"] or run.name.is_reference \
                or not (run.name.dataset and run.name.op and run.name.library):
            continue
        by_unit.setdefault(f"{run.name.dataset}/{run.name.rows}", []).append(run)
    out = {}
    for unit, runs in by_unit.items():
        rounds = sorted({r for run in runs for r in run.ratios["cpu"]})
        index = {round_id: i for i, round_id in enumerate(rounds)}
        racers = []
        for run in runs:
            times = [None] * len(rounds)
            for round_id, ratio in run.ratios["cpu"].items():
                times[index[round_id]] = ratio
            settled = run.settled or {}
            racers.append(Racer(run.name.full, run.name.case, run.name.op, run.name.library,
                                run.name.source, times, run.counter("wire_digest"),
                                int(settled.get("after", 0)), settled.get("by", "")))
        out[unit] = racers
    return out


def _time(racer, round_index):
    return racer.times[round_index] if round_index < len(racer.times) else None


class _Standing:
    """The racers of one unit as the rule sees them after some rounds."""

    def __init__(self, racers):
        self.racers = racers
        self.settled = {}  # name -> rounds it ran

    def visible(self, racer, round_index):
        """Its time in a round it ran (a settled racer ran none after it settled)."""
        ran = self.settled.get(racer.name)
        if ran is not None and round_index >= ran:
            return None
        return _time(racer, round_index)

    def median(self, racer, rounds):
        return _median([self.visible(racer, r) for r in range(rounds)])

    def leaders(self, rounds):
        best = {}
        for racer in self.racers:
            if racer.op in NOT_RACED or racer.name in self.settled:
                continue
            m = self.median(racer, rounds)
            if m is None:
                continue
            if racer.group not in best or m < best[racer.group][1]:
                best[racer.group] = (racer, m)
        return {group: racer for group, (racer, _) in best.items()}

    def serializer(self, case, library, round_index):
        for racer in self.racers:
            if racer.op == "encode" and racer.case == case and racer.library == library:
                t = self.visible(racer, round_index)
                if t is not None:
                    return t
                ran = self.settled.get(racer.name, len(racer.times))
                return _median(racer.times[:ran]) or 0.0
        return 0.0

    def compression(self, case, round_index):
        per_codec = {}
        for racer in self.racers:
            if racer.case == case and racer.op in NOT_RACED:
                t = _time(racer, round_index)
                if t is not None:
                    per_codec[racer.library] = per_codec.get(racer.library, 0.0) + t
        return max(per_codec.values(), default=0.0)

    def base(self, leader, leaders, round_index):
        t = self.visible(leader, round_index)
        if leader.op == "decode":
            return (t + self.serializer(leader.case, leader.source, round_index)
                    + self.compression(leader.case, round_index))
        if leader.op == "encode":
            own = leaders.get((*leader.case, "decode", leader.library))
            decode = self.visible(own, round_index) if own else None
            if decode is None:
                decode = max((self.visible(r, round_index) or 0.0 for g, r in leaders.items()
                              if g[:3] == leader.case and g[3] == "decode"), default=0.0)
            return t + decode + self.compression(leader.case, round_index)
        return t


def settle(standing, rounds_done, rule):
    """One decision point, after rounds_done rounds: [(racer, leader, least excess/base)]
    settled now (race.hpp's Race::settle)."""
    if rounds_done < rule.first_block:
        return []
    leaders = standing.leaders(rounds_done)
    found = []
    for racer in standing.racers:
        leader = leaders.get(racer.group)
        if leader is None or leader is racer or racer.name in standing.settled:
            continue
        # An encoder only against one that wrote its very bytes (a run without digests,
        # made before racing, never settles one).
        if racer.op == "encode" and (racer.digest is None or racer.digest != leader.digest):
            continue
        least, rounds, behind = math.inf, 0, True
        for r in range(rounds_done):
            tx, tl = standing.visible(racer, r), standing.visible(leader, r)
            if tx is None or tl is None:
                continue
            b = standing.base(leader, leaders, r)
            least = min(least, (tx - tl) / b if b > 0 else -math.inf)
            behind = b > 0 and tx - tl > rule.margin * b
            rounds += 1
            if not behind:
                break
        if behind and rounds >= rule.first_block:
            found.append((racer, leader, least))
    for racer, _, _ in found:
        standing.settled[racer.name] = rounds_done
    return found


def simulate(result, rule=Rule()):
    """{benchmark name: (rounds it would have run, leader name, least excess/base)} of the
    competitors the rule settles in this run's data, as if the run had raced."""
    out = {}
    for racers in units(result).values():
        standing = _Standing(racers)
        for n in range(1, max((len(r.times) for r in racers), default=0) + 1):
            for racer, leader, least in settle(standing, n, rule):
                out[racer.name] = (n, leader.name, least)
    return out


def check(result, rule=None):
    """The decisions a racing run recorded against the rule applied to its own data:
    [(name, recorded rounds, the rule's rounds)] where they differ (0: not settled). The
    rule's margin and first block come from the run unless given."""
    rule = rule or rule_of(result.context)
    recorded = {r.name: r.settled_after for racers in units(result).values() for r in racers}
    derived = {name: found[0] for name, found in simulate(result, rule).items()}
    return [(name, recorded[name], derived.get(name, 0)) for name in sorted(recorded)
            if recorded[name] != derived.get(name, 0)]


def rule_of(context):
    """The Rule a run's context records (context racing), or the default."""
    text = str((context or {}).get("racing", ""))
    rule = Rule()
    try:
        first = int(text.split("after round ", 1)[1].split()[0])
        margin = float(text.split("t_X - t_L > ", 1)[1].split()[0])
        return Rule(first, margin)
    except (IndexError, ValueError):
        return rule


def racing(context):
    """True when the run raced (its context names the rule and it was on)."""
    text = str((context or {}).get("racing", ""))
    return bool(text) and not text.startswith("off")


@dataclass
class Answer:
    """What the model's answer is made of: the benchmarks of the fastest calls and the calls
    tied with them; and every call with a settled benchmark that was, in a round it shares
    with the fastest call, as fast as it (which racing must make impossible)."""

    parts: set = field(default_factory=set)
    cases: int = 0
    settled_overlaps: list = field(default_factory=list)
    # (link, connection, dataset, rows) -> the benchmarks of that case's answer
    by_case: dict = field(default_factory=dict)


def call_parts(pairing, result):
    """The benchmark names a pairing's call is made of."""
    prefix = f"{pairing.format}/{pairing.dataset}/{pairing.rows}"
    names = {f"{prefix}/encode/{pairing.serializer}"}
    if pairing.decoder_name:
        names.add(pairing.decoder_name)
    if pairing.compression != "none":
        for op in ("compress", "decompress"):
            names.update(run.name.full for run in result.select(
                format=pairing.format, dataset=pairing.dataset, rows=pairing.rows, op=op,
                library=pairing.compression))
    return names


def behind_in_every_round(p, parts, fastest, fastest_parts, hops=0):
    """A call with a settled part against the fastest call, round by round as racing
    compared it: True when in every round both timed, its total (CPU that round + wire) was
    above the fastest's. The model's min-max intervals of the two would pair a round of one
    with another round of the other, and one slow round of a compressor widens every call
    that uses it; the racing rule compares within a round, and so does this."""
    theirs = dict(zip(fastest.round_ids, fastest.cpu_rounds))
    common = [(cpu, theirs[r]) for r, cpu in zip(p.round_ids, p.cpu_rounds) if r in theirs]
    if not common:
        return not calls.overlaps(fastest_parts, parts)
    # Each middleware hop does the call's CPU again (calls.call).
    return all((1 + hops) * mine + parts["wire"] > (1 + hops) * other + fastest_parts["wire"]
               for mine, other in common)


def in_answer(result, link_profiles, connections=("warm", "cold")):
    """Answer over every link profile, connection state and case of the result."""
    pairings = calls.collect(result)
    answer = Answer()
    for link in link_profiles:
        for connection in connections:
            for dataset, rows in pairings.cases():
                ranked = sorted(((p, calls.call(p, link, connection=connection))
                                 for p in pairings.of_case(dataset, rows)),
                                key=lambda item: item[1]["total"])
                if not ranked:
                    continue
                answer.cases += 1
                fastest = ranked[0]
                here = call_parts(fastest[0], result)
                for p, parts in ranked[1:]:
                    if p.settled:
                        if not behind_in_every_round(p, parts, *fastest,
                                                     hops=link.middleware_hops):
                            answer.settled_overlaps.append(
                                (link.name, connection, dataset, rows, p.label))
                    elif calls.overlaps(fastest[1], parts):
                        here |= call_parts(p, result)
                answer.by_case[(link.name, connection, dataset, rows)] = here
                answer.parts |= here
    return answer
