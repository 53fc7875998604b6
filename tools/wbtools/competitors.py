"""The competitors of a run: the benchmarks that answer one question, and each one's time
against the fastest's.

A question is one payload, one operation and one input (the serializer that wrote a decoder's
input): json/message/100 decode from:reference is one, and every decoder timed on it competes.
The ratio of two competitors is the ratio of their two samples of repetitions with its 95 %
interval (stats.ratio_interval, the Hodges-Lehmann/Moses interval the Mann-Whitney U-test
inverts), so that two results are called tied when the interval holds 1.
"""

from . import stats

# Operations whose libraries compete for the same question.
COMPARED_OPS = ("encode", "decode", "parse-only", "decode-new-parser", "decode-cold-cache",
                "route", "compress", "decompress")


def question(name):
    """The question a benchmark answers with its competitors: one payload, one operation,
    one input (the serializer that wrote a decoder's input)."""
    return (name.format, name.dataset, name.rows, name.op, name.source)


def ratios(result):
    """{run key: {"fastest", "ratio", "low", "high", "confidence", "verdict"}} for every run
    with at least one competitor: its time against the fastest competitor's (lowest median
    cpu time) as the ratio of the two samples and its interval (stats.ratio_interval, the
    interval the Mann-Whitney U-test inverts). verdict: "fastest", "tied" (the interval holds
    1), "slower", or "too few repetitions" (no 95 % interval)."""
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
        fastest_key, fastest = min(members, key=lambda m: m[1].median())
        for key, run in members:
            entry = {"fastest": fastest.name.library}
            if key == fastest_key:
                entry.update(ratio=1.0, verdict="fastest")
            else:
                point, interval = stats.ratio_interval(run.cpu, fastest.cpu)
                entry["ratio"] = point
                if interval is None:
                    entry["verdict"] = "too few repetitions"
                else:
                    entry.update(low=interval.low, high=interval.high,
                                 confidence=interval.confidence,
                                 verdict="tied" if interval.low <= 1 <= interval.high
                                 else "slower")
            out[key] = entry
    return out
