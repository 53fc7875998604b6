"""The paired figures of a run in rounds (wbtools/results/paired.py) and the tools that answer with
them: results.Run.figure, the model's call intervals and ties, holds' and compare's paired
comparisons."""

import json
import math
import os
import tempfile
import unittest

from wbtools import compare, results
from wbtools.results import holds, merge, paired
from wbtools.transfer import links, calls


def entry(name, round_index, round_id, slot, cpu, probe=False, unit="us"):
    return {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 0,
            "repetition_index": round_index, "threads": 1, "iterations": 10,
            "real_time": cpu, "cpu_time": cpu, "time_unit": unit, "round": round_index,
            "round_id": round_id, "round_slot": slot, "paired_reference": int(probe)}


PROBE = "reference/byte-scan/4617"
FAST = "json/message/100/decode/fast/from:reference"
SLOW = "json/message/100/decode/slow/from:reference"


def rounds_run(slow_round=None, rounds=6, fast_us=10.0, slow_us=30.0, window=1.6):
    """Entries of one unit: probe, fast, slow, probe per round; in slow_round the machine
    runs `window` times slower for everything (a slow window over the whole round)."""
    out = []
    for r in range(rounds):
        speed = window if r == slow_round else 1.0
        wobble = 1 + 0.01 * (r % 3)  # a little noise of the competitors' own
        out += [entry(PROBE, r, r, 0, 1.0 * speed, probe=True),
                entry(FAST, r, r, 1, fast_us * speed * wobble),
                entry(SLOW, r, r, 2, slow_us * speed * wobble),
                entry(PROBE, r, r, 3, 1.0 * speed, probe=True)]
    return out


def with_aggregates(entries):
    paired.pair(entries)
    return entries + paired.aggregates(entries)


def load(entries, context=None):
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    with handle:
        json.dump({"context": context or {"run_design": "rounds"}, "benchmarks": entries}, handle)
    try:
        return results.load(handle.name)
    finally:
        os.unlink(handle.name)


class Pairing(unittest.TestCase):
    def test_a_slow_window_moves_the_time_but_not_the_paired_ratio(self):
        entries = rounds_run(slow_round=2)
        paired.pair(entries)
        ratios = [e["paired_ratio"] for e in entries if e["name"] == FAST]
        times = [e["cpu_time"] for e in entries if e["name"] == FAST]
        self.assertGreater(max(times) / min(times), 1.5)
        self.assertLess(max(ratios) / min(ratios), 1.03)

    def test_the_probe_beside_a_competitor_is_the_mean_of_its_neighbours(self):
        entries = [entry(PROBE, 0, 0, 0, 1.0, probe=True), entry(FAST, 0, 0, 1, 8.0),
                   entry(PROBE, 0, 0, 2, 4.0, probe=True), entry(SLOW, 0, 0, 3, 8.0)]
        paired.pair(entries)
        self.assertAlmostEqual(entries[1]["paired_ratio"], 8.0 / 2.0)  # sqrt(1 x 4)
        self.assertAlmostEqual(entries[3]["paired_ratio"], 8.0 / 4.0)  # the one before it
        self.assertNotIn("paired_ratio", entries[0])

    def test_ratios_are_taken_in_seconds_across_time_units(self):
        entries = [entry(PROBE, 0, 0, 0, 1000.0, probe=True, unit="ns"), entry(FAST, 0, 0, 1, 3.0)]
        paired.pair(entries)
        self.assertAlmostEqual(entries[1]["paired_ratio"], 3.0)

    def test_round_ids_are_made_unique_across_parts(self):
        parts = [rounds_run(rounds=2), rounds_run(rounds=3)]
        paired.renumber(parts)
        self.assertEqual(sorted({e["round_id"] for e in parts[1]}), [2, 3, 4])


class Aggregates(unittest.TestCase):
    def test_paired_time_is_the_probes_fast_time_times_the_median_ratio(self):
        entries = rounds_run(slow_round=2)
        found = {e["run_name"]: e for e in paired.aggregates(with_aggregates(entries))
                 if e["aggregate_name"] == "paired"}
        self.assertEqual(set(found), {FAST, SLOW})
        fast = found[FAST]
        # Probe fast time 1 us; ratios 10, 10.1, 10.2 (twice each, the slow round's too).
        self.assertAlmostEqual(fast["cpu_time"], 10.1)
        self.assertAlmostEqual(fast["paired_ratio"], 10.1)
        self.assertAlmostEqual(fast["paired_probe_time"], 1.0)
        self.assertEqual(fast["paired_probe"], PROBE)
        # Six rounds: the sign test's interval is [min, max] at 96.9 %.
        self.assertAlmostEqual(fast["paired_ratio_low"], 10.0)
        self.assertAlmostEqual(fast["paired_ratio_high"], 10.2)
        self.assertAlmostEqual(fast["paired_confidence"], 1 - 2 / 64)

    def test_fewer_than_six_rounds_have_no_interval(self):
        found = [e for e in paired.aggregates(with_aggregates(rounds_run(rounds=5)))
                 if e["aggregate_name"] == "paired"]
        self.assertTrue(found)
        self.assertTrue(all("paired_ratio_low" not in e for e in found))

    def test_statistics_as_google_benchmark_writes_them(self):
        found = {(e["run_name"], e["aggregate_name"]): e
                 for e in paired.aggregates(with_aggregates(rounds_run(slow_round=2)))}
        self.assertEqual(found[(FAST, "median")]["name"], FAST + "_median")
        self.assertAlmostEqual(found[(FAST, "median")]["cpu_time"], 10.1)
        self.assertEqual(found[(PROBE, "mean")]["repetitions"], 12)
        self.assertNotIn((PROBE, "paired"), found)

    def test_fast_quantile(self):
        self.assertEqual(paired.quantile(list(range(1, 21)), 0.1), 2)
        self.assertEqual(paired.quantile([5.0], 0.1), 5.0)

    def test_merge_pairs_a_run_in_rounds(self):
        data = {"context": {"run_design": "rounds", "rounds": "6", "executable": "x"},
                "benchmarks": rounds_run()}
        merged = merge.merge([(data, "0-999", 0.005)])
        self.assertEqual(merged["context"]["bands"][0]["rounds"], 6)
        self.assertTrue(any(b.get("aggregate_name") == "paired" for b in merged["benchmarks"]))


class Answers(unittest.TestCase):
    def setUp(self):
        self.result = load(with_aggregates(rounds_run(slow_round=2)))

    def test_figure_is_the_paired_time_and_round_times_its_terms(self):
        fast = self.result.runs[FAST]
        self.assertAlmostEqual(fast.figure(), 10.1e-6)
        self.assertAlmostEqual(fast.median(), statistics_median([10, 10.1, 10.2 * 1.6, 10, 10.1,
                                                                 10.2]) * 1e-6)
        interval = fast.figure_interval()
        self.assertAlmostEqual(interval.low, 10.0e-6)
        self.assertAlmostEqual(interval.high, 10.2e-6)
        self.assertEqual(sorted(fast.round_times()), list(range(6)))
        self.assertAlmostEqual(fast.round_times()[2], 10.2e-6)

    def test_a_run_without_rounds_answers_with_its_median(self):
        plain = load([entry(FAST, r, r, 0, 10.0 + r) for r in range(6)], context={})
        self.assertAlmostEqual(plain.runs[FAST].figure(), 12.5e-6)
        self.assertEqual(plain.runs[FAST].round_times(), {})

    def test_holds_compares_two_competitors_round_by_round(self):
        found = holds.ratios(self.result)
        self.assertEqual(found[FAST]["verdict"], "fastest")
        self.assertAlmostEqual(found[SLOW]["ratio"], 3.0)
        self.assertEqual(found[SLOW]["verdict"], "slower")

    def test_two_competitors_within_each_others_rounds_are_tied(self):
        entries = []
        for r in range(6):
            up = 1 + 0.02 * (r % 2)
            entries += [entry(PROBE, r, r, 0, 1.0, probe=True), entry(FAST, r, r, 1, 10.0 * up),
                        entry(SLOW, r, r, 2, 10.0 / up), entry(PROBE, r, r, 3, 1.0, probe=True)]
        found = holds.ratios(load(with_aggregates(entries)))
        self.assertEqual({found[FAST]["verdict"], found[SLOW]["verdict"]}, {"fastest", "tied"})


def statistics_median(values):
    ordered = sorted(values)
    return (ordered[2] + ordered[3]) / 2


class Calls(unittest.TestCase):
    def pairing(self, cpu_rounds, encode=1e-3):
        return calls.Pairing("json", "message", 100, "reference", "p", "none", 1000.0, encode,
                             0.0, cpu_rounds=tuple(cpu_rounds))

    def test_calls_whose_intervals_overlap_are_tied(self):
        link = links.pick(links.load_links(None), "lan")[0]
        a = self.pairing([1.00e-3, 0.99e-3, 1.01e-3, 1.0e-3, 1.02e-3, 0.98e-3])
        b = self.pairing([1.01e-3, 1.00e-3, 1.02e-3, 1.03e-3, 1.01e-3, 0.99e-3], 1.01e-3)
        c = self.pairing([2e-3] * 6, 2e-3)
        ranked = calls.rank([c, b, a], link)
        self.assertIs(ranked[0][0], a)
        self.assertEqual([p for p, _ in calls.tied_with_fastest(ranked)], [b])
        self.assertFalse(calls.tied(ranked[0][1], calls.call(c, link)))

    def test_calls_without_rounds_are_never_tied(self):
        link = links.pick(links.load_links(None), "lan")[0]
        parts = calls.call(self.pairing([]), link)
        self.assertNotIn("total_low", parts)
        self.assertFalse(calls.tied(parts, parts))

    def test_the_interval_holds_the_calls_figure(self):
        low, high = calls.cpu_interval(self.pairing([2e-3, 2.1e-3, 2.2e-3, 2.1e-3, 2e-3, 2.3e-3],
                                                    encode=1.5e-3))
        self.assertEqual(low, 1.5e-3)
        self.assertAlmostEqual(high, 2.3e-3)


class Compare(unittest.TestCase):
    def test_two_runs_in_rounds_are_compared_on_their_ratios_to_the_probe(self):
        old = load(with_aggregates(rounds_run()))
        # Both competitors 1.6x slower, the probe not: a change of the code.
        new = load(with_aggregates(rounds_run(fast_us=16.0, slow_us=48.0)))
        # The whole run on a machine 1.6x slower, probe and all: times move, ratios do not.
        slower = load(with_aggregates([dict(e, cpu_time=e["cpu_time"] * 1.6,
                                            real_time=e["real_time"] * 1.6)
                                       for e in rounds_run()]))
        found = compare.verdicts(old, slower)
        self.assertEqual({found[FAST].call, found[SLOW].call}, {"same"})
        # The probe has no ratio of its own: its times say the machine moved.
        self.assertEqual(found[PROBE].call, "slower")
        self.assertTrue(math.isclose(found[FAST].ratio, 1.0))
        # A competitor that itself got slower is called so.
        found = compare.verdicts(old, new)
        self.assertEqual(found[FAST].call, "slower")
        self.assertAlmostEqual(found[FAST].ratio, 1.6, places=2)


if __name__ == "__main__":
    unittest.main()


class Headline(unittest.TestCase):
    def test_the_fastest_call_names_the_calls_tied_with_it(self):
        from wbtools.transfer import model_view
        link = links.pick(links.load_links(None), "lan")[0]
        close = [1.00e-3, 0.99e-3, 1.01e-3, 1.0e-3, 1.02e-3, 0.98e-3]

        def pairing(parser, cpu, rounds):
            return calls.Pairing("json", "science", 8100, "reference", parser, "none", 1000.0,
                                 cpu, 0.0, cpu_rounds=tuple(rounds))
        pairings = calls.Pairings([pairing("a", 1.0e-3, close), pairing("b", 1.005e-3, close),
                                   pairing("c", 2e-3, [2e-3] * 6)])
        table = model_view.headline(pairings, [link], "science")
        self.assertIn("json reference → a (tied with json reference → b) |", table)
        self.assertNotIn("→ c", table)
        self.assertEqual(model_view.headline(pairings, [link], "message"), "")
