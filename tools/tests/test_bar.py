"""The bar's figures (tools/bar.py): Kendall's tau and the comparison of two runs' answers."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bar  # noqa: E402
from wbtools.transfer import links, calls  # noqa: E402


class Tau(unittest.TestCase):
    def test_same_order_reversed_order_and_one_swap(self):
        self.assertEqual(bar.kendall_tau("abcd", "abcd"), 1.0)
        self.assertEqual(bar.kendall_tau("abcd", "dcba"), -1.0)
        self.assertAlmostEqual(bar.kendall_tau("abcd", "bacd"), 4 / 6)
        # Items the other ranking lacks are left out.
        self.assertEqual(bar.kendall_tau("abxc", "abc"), 1.0)


def pairing(parser, cpu, rounds=()):
    return calls.Pairing("json", "message", 100, "reference", parser, "none", 1000.0, cpu, 0.0,
                         cpu_rounds=tuple(rounds))


class Answers(unittest.TestCase):
    def ranked(self, pairings):
        link = links.pick(links.load_links(None), "lan")[0]
        return {("lan", "message", 100): calls.rank(pairings, link)}

    def test_a_moved_fastest_that_is_tied_counts_as_tied(self):
        close = [1.00e-3, 0.99e-3, 1.01e-3, 1.00e-3, 1.02e-3, 0.98e-3]
        a = self.ranked([pairing("x", 1.00e-3, close), pairing("y", 1.01e-3, close),
                         pairing("z", 3e-3, [3e-3] * 6)])
        b = self.ranked([pairing("x", 1.01e-3, close), pairing("y", 1.00e-3, close),
                         pairing("z", 3.2e-3, [3.2e-3] * 6)])
        found = bar.answers(a, b)
        self.assertEqual((found["fastest_same"], found["fastest_tied"]), (0, 1))
        self.assertEqual(found["fastest_moved"], [])
        # x and y: 1 % apart, within 3 %; z: 6.7 % apart.
        self.assertAlmostEqual(found["cpu_within_3pct"], 2 / 3)

    def test_a_moved_fastest_without_intervals_is_moved(self):
        a = self.ranked([pairing("x", 1.0e-3), pairing("y", 2.0e-3)])
        b = self.ranked([pairing("x", 2.0e-3), pairing("y", 1.0e-3)])
        found = bar.answers(a, b)
        self.assertEqual(found["fastest_moved"], ["lan message 100"])
        self.assertEqual(found["tau_median"], -1.0)


class Wire(unittest.TestCase):
    def test_cases_within_five_percent_and_the_flagged_ones(self):
        data = {"type": "wirebench-wire", "context": {}, "cases": [
            {"profile": "wan", "payload": "json/science/1000", "congestion": "cubic",
             "connection": "warm", "model": {"model": {"ratio": 0.40}},
             "disagreeing_rounds": [1]},
            {"profile": "wan", "payload": "json/message/100", "congestion": "cubic",
             "connection": "cold", "model": {"model": {"ratio": 1.02}},
             "disagreeing_rounds": []}]}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(data, handle)
        self.addCleanup(os.unlink, handle.name)
        found = bar.wire_figures([handle.name])[0]
        self.assertEqual((found["cases"], found["within_5pct"]), (2, 1))
        self.assertEqual(found["flagged"], ["wan json/science/1000 cubic warm rounds [1]"])


if __name__ == "__main__":
    unittest.main()


class Estimators(unittest.TestCase):
    def test_a_slow_window_in_one_run_moves_the_median_and_not_the_paired_time(self):
        from tests import test_paired as tp
        paths = []
        # A: a quiet run; B: three of its six rounds in a slow window, probes and all.
        for slow in ((), (0, 2, 4)):
            entries = []
            for r in range(6):
                speed = 1.6 if r in slow else 1.0
                entries += [tp.entry(tp.PROBE, r, r, 0, speed, probe=True),
                            tp.entry(tp.FAST, r, r, 1, 10.0 * speed),
                            tp.entry(tp.PROBE, r, r, 2, speed, probe=True)]
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
                json.dump({"context": {"run_design": "rounds"},
                           "benchmarks": tp.with_aggregates(entries)}, handle)
            self.addCleanup(os.unlink, handle.name)
            paths.append(handle.name)
        found = bar.estimators(*paths)
        self.assertAlmostEqual(found["paired (the file's)"][0], 0.0)
        self.assertAlmostEqual(found["paired, probe's minimum"][0], 0.0)
        self.assertAlmostEqual(found["median"][0], 0.3)  # median of 10, 10, 10, 16, 16, 16
        self.assertAlmostEqual(found["minimum"][0], 0.0)


class Spread(unittest.TestCase):
    def test_a_slow_round_spreads_the_times_and_not_the_ratios(self):
        from tests import test_paired as tp
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump({"context": {"run_design": "rounds"},
                       "benchmarks": tp.with_aggregates(tp.rounds_run(slow_round=2))}, handle)
        self.addCleanup(os.unlink, handle.name)
        found = bar.spread(handle.name)
        count, median, _, share = found["time"]
        self.assertEqual(count, 2)
        self.assertAlmostEqual(median, 1.6 * 1.02)  # the slow round, with its own 2 %
        self.assertAlmostEqual(share, 2 / 12)
        self.assertAlmostEqual(found["paired ratio"][1], 1.02)
        self.assertEqual(found["paired ratio"][3], 0.0)
