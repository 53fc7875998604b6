"""What a run holds and what it does not, and how its competitors compare.

Any run gets a page: the whole suite, or a focused run of two benchmarks. The page first says
what the file holds (benchmarks, formats, payloads, operations, how many of the registry's
codecs of each format) and what the page therefore cannot show ("no link model: no encode
in the run"), then, per question (one payload, one operation, one input), the competitors side
by side: each one's figure against the fastest's. In a run in rounds that is the median of
the two competitors' per-round ratios and its sign-test 95 % interval (paired.ratio_of); in
another run the ratio of the two samples and its 95 % interval (stats.ratio_interval, the
interval the Mann-Whitney U-test inverts).
"""

from . import labels, paired, runs
from .. import stats

# A run of every benchmark has at least this many repetitions per benchmark
# (tools/commands/bench.sh defaults to 6): median_interval needs 6 for a 95 % interval.
MIN_REPETITIONS = 6
# Operations whose competitors the page compares, and the label role of each.
COMPARED_OPS = ("encode", "decode", "parse-only", "decode-new-parser", "decode-cold-cache",
                "route", "compress", "decompress")


def question(name):
    """The question a benchmark answers with its competitors: one payload, one operation,
    one input (the serializer that wrote a decoder's input)."""
    return (name.format, name.dataset, name.rows, name.op, name.source)


def ratios(result):
    """{run key: {"fastest": library, "ratio": point, "low", "high", "confidence",
    "verdict"}} for every run with at least one competitor: its time against the fastest
    competitor's (fastest: lowest median cpu time), ratio >= 1 by construction of the
    point estimate up to ties. verdict: "fastest", "tied" (the interval holds 1), "slower",
    "settled" (racing stopped it after "settled_after" rounds, benchmarks/race.hpp: its
    interval is the min-max of those rounds' ratios, at the lower coverage "confidence"; it
    is never called tied) or "too few repetitions" (no 95 % interval)."""
    groups = {}
    for key, run in result.runs.items():
        name = run.name
        if run.error or name.op not in COMPARED_OPS or name.threads != 1 or not run.cpu:
            continue
        groups.setdefault(question(name), []).append((key, run))
    out = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        fastest_key, fastest = min(members, key=lambda m: m[1].figure())
        for key, run in members:
            entry = {"fastest": fastest.name.library}
            if key == fastest_key:
                entry.update(ratio=1.0, verdict="fastest")
            else:
                # In rounds: the per-round ratios of the two, a paired comparison; else the
                # ratio of the two samples.
                both = paired.ratio_of(run.ratios["cpu"], fastest.ratios["cpu"],
                                       settled=bool(run.settled))
                point, interval = both or stats.ratio_interval(run.cpu, fastest.cpu)
                entry["ratio"] = point
                if run.settled:
                    entry.update(verdict="settled", settled_after=run.settled["after"])
                    if interval is not None:
                        entry.update(low=interval.low, high=interval.high,
                                     confidence=interval.confidence)
                elif interval is None:
                    entry["verdict"] = "too few repetitions"
                else:
                    entry.update(low=interval.low, high=interval.high,
                                 confidence=interval.confidence,
                                 verdict="tied" if interval.low <= 1 <= interval.high
                                 else "slower")
            out[key] = entry
    return out


def questions(result):
    """[(question, [(run, ratios() entry)] fastest first)] of the questions with at least two
    competitors, by payload, then operation in COMPARED_OPS order, then input."""
    against = ratios(result)
    groups = {}
    for key, run in result.runs.items():
        if key in against:
            groups.setdefault(question(run.name), []).append((run, against[key]))
    order = {op: i for i, op in enumerate(COMPARED_OPS)}
    return [(q, sorted(members, key=lambda m: m[0].figure()))
            for q, members in sorted(groups.items(), key=lambda g: (
                g[0][:3], order.get(g[0][3], len(order)), g[0][4] != "reference", g[0][4]))]


def _registry(result):
    """{format: {role: set of libraries}} of the codecs the file's context lists (every codec
    of the registry the benchmark binary was built with)."""
    out = {}
    for fmt, role, library, _ in labels.of(result).entries():
        out.setdefault(fmt, {}).setdefault(role, set()).add(library)
    return out


def _timed(result):
    """{format: {role: set of libraries}} of the codecs the run's benchmarks time."""
    out = {}
    for run in result.runs.values():
        role = labels.ROLE_OF_OP.get(run.name.op)
        if role and not run.error:
            out.setdefault(run.name.format, {}).setdefault(role, set()).add(run.name.library)
    return out


_NOUNS = {"encode": "encoder", "decode": "decoder", "route": "router"}


def _plural(count, word):
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def holds(result, pairings, memory_entries):
    """What the run holds, for the top of the page: counts, the codecs timed of each format
    against the registry's, and the sentences of what it does not hold (each with what the
    page cannot show for it)."""
    timed = [run for run in result.runs.values() if not run.error]
    payload_runs = [run for run in timed if run.name.dataset and run.name.rows]
    formats = list(dict.fromkeys(sorted(run.name.format for run in payload_runs)))
    registry, codecs = _registry(result), _timed(result)
    whole = runs.Run("", context=result.context,
                     benchmark_names=list(result.runs)).whole_suite
    # A run in rounds: a probe runs several times a round; the others' repetitions are rounds.
    # A competitor settled by racing ran fewer rounds by design: the contenders' count it.
    repetitions = [len(run.cpu) for run in timed if run.cpu and not run.probe and not run.settled]
    rounds = any(run.probe for run in timed)
    present = {run.name.op for run in payload_runs}
    ops = [op for op in COMPARED_OPS if op in present] + sorted(present - set(COMPARED_OPS))
    missing = []
    if not pairings.items:
        encodes = [run for run in payload_runs if run.name.op == "encode"]
        missing.append("no link model: " + ("no encode in the run" if not encodes else
                                            "its encodes carry no wire_bytes counter"))
    elif not any(p.compression != "none" for p in pairings.items):
        missing.append("no compression: calls are modelled uncompressed only")
    absent = sorted(set(registry) - set(formats))
    if absent and formats:
        missing.append(f"no {', '.join(absent)} benchmarks (the registry's other formats)")
    if repetitions and min(repetitions) < MIN_REPETITIONS:
        low = min(repetitions)
        missing.append(f"{_plural(low, 'repetition')} (at least {MIN_REPETITIONS} give a 95 % "
                       "interval): ranges are min–max, ratios have no interval")
    if payload_runs and not memory_entries:
        missing.append("no memory figures (the allocation counter was off)")
    if any(run.name.op == "decode" for run in payload_runs) and \
            not any(run.name.op == "parse-only" for run in payload_runs):
        missing.append("no parse-only: decode is not split into parse and binding")
    threaded = sum(run.name.threads != 1 for run in timed)
    if threaded:
        missing.append(f"{_plural(threaded, 'benchmark')} at more than one thread: under All "
                       "tables only")
    coverage = []
    for fmt in formats:
        parts = []
        for role, noun in _NOUNS.items():
            mine = codecs.get(fmt, {}).get(role, set())
            theirs = registry.get(fmt, {}).get(role, set())
            if mine or theirs:
                parts.append(f"{len(mine)} of {len(theirs | mine)} {noun}s" if theirs
                             else _plural(len(mine), noun))
        coverage.append([fmt, ", ".join(parts)])
    kind = str(result.context.get("run_kind") or "default")
    cases = sorted({(run.name.dataset, run.name.rows) for run in payload_runs})
    word = "round" if rounds else "repetition"
    if not repetitions:
        reps = "no repetitions"
    elif min(repetitions) == max(repetitions):
        reps = f"{_plural(repetitions[0], word)} each"
    else:
        reps = f"{min(repetitions)}-{max(repetitions)} {word}s"
    if rounds:
        reps += ", side by side with the payload's probe"
    failed = len(result.runs) - len(timed)
    summary = (f"{_plural(len(timed), 'benchmark')}"
               + (f" (and {failed:,} that did not run)" if failed else "")
               + f", {_few(formats, 4, 'format')}"
               + f", {_few([f'{d} ({r:,} rows)' for d, r in cases], 3, 'payload')}"
               + f", {_few(ops, 4, 'operation')}; {reps}.")
    return {"whole_suite": whole,
            "lead": "The whole suite" if whole else
            f"A {kind} run" if kind != "default" else "A focused run",
            "filter": None if whole else result.context.get("benchmark_filter") or None,
            "summary": summary, "coverage": coverage, "missing": missing}


def _few(items, most, word):
    """Up to most items by name ("a, b and c"), else their count."""
    if not items:
        return f"no {word}"
    if len(items) > most:
        return _plural(len(items), word)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def text(held):
    """What holds() says as one paragraph of plain text (REPORT.md's)."""
    line = held["lead"] + (f" (--filter `{held['filter']}`)" if held["filter"] else "") + \
        ": " + held["summary"]
    if not held["whole_suite"] and held["coverage"]:
        line += " Codecs timed: " + "; ".join(f"{fmt}: {counts}"
                                              for fmt, counts in held["coverage"]) + "."
    if held["missing"]:
        line += " Not in this run: " + "; ".join(held["missing"]) + "."
    return line
