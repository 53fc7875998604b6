"""The racing rule (benchmarks/race.hpp) as wbtools.transfer.race applies it to a result, on runs
made up here: who is settled, when, and what keeps a competitor racing."""

import unittest

from wbtools.transfer import calls, race
from wbtools import results


def result_of(times, digests=None, settled=None):
    """A ResultFile of one unit in rounds: {name: [time per round, None where it did not
    run]} relative to the probe; digests {encoder name: wire_digest}; settled {name:
    rounds it ran} as a racing run records it."""
    runs = {}
    for name, per_round in times.items():
        run = results.Run(results.parse_name(name))
        run.ratios["cpu"] = {r: t for r, t in enumerate(per_round) if t is not None}
        run.cpu = [t * 1e-6 for t in per_round if t is not None]
        run.paired = {"cpu_time": 1.0, "time_unit": "us"}
        if digests and name in digests:
            run.counters["wire_digest"] = [digests[name]]
        if settled and name in settled:
            run.settled = {"after": settled[name], "by": "leader"}
        runs[name] = run
    return results.ResultFile("made-up.json", {}, runs)


P = "json/message/100/"
CALL = {P + "encode/reference": [1.0] * 6, P + "compress/gzip": [0.5] * 6,
        P + "decompress/gzip": [0.2] * 6}


class Settling(unittest.TestCase):
    def test_a_decoder_far_behind_its_call_is_settled_after_the_first_block(self):
        # base = leader 1 + encode 1 + gzip 0.7 = 2.7; the line is 0.25 x 2.7 = 0.675.
        found = race.simulate(result_of({
            **CALL, P + "decode/fast/from:reference": [1.0] * 6,
            P + "decode/slow/from:reference": [3.0] * 6,
            P + "decode/close/from:reference": [1.5] * 6}))
        self.assertEqual(set(found), {P + "decode/slow/from:reference"})
        rounds, leader, least = found[P + "decode/slow/from:reference"]
        self.assertEqual(rounds, race.FIRST_BLOCK)
        self.assertEqual(leader, P + "decode/fast/from:reference")
        self.assertAlmostEqual(least, 2 / 2.7)

    def test_a_costly_compression_keeps_a_decoder_racing(self):
        # With brotli at 20 the call is 22.7 and a decoder 2 behind may tie in it.
        found = race.simulate(result_of({
            **CALL, P + "compress/br": [20.0] * 6, P + "decompress/br": [0.5] * 6,
            P + "decode/fast/from:reference": [1.0] * 6,
            P + "decode/slow/from:reference": [3.0] * 6}))
        self.assertEqual(found, {})

    def test_one_round_below_the_line_keeps_it_racing(self):
        found = race.simulate(result_of({
            **CALL, P + "decode/fast/from:reference": [1.0] * 6,
            P + "decode/slow/from:reference": [3.0, 3.0, 1.2, 3.0, 3.0, 3.0]}))
        self.assertEqual(found, {})

    def test_a_first_round_below_the_line_keeps_it_racing_for_good(self):
        # Every round so far must be above the line, so round 0 below it decides.
        found = race.simulate(result_of({
            **CALL, P + "decode/fast/from:reference": [1.0] * 6,
            P + "decode/slow/from:reference": [1.2, 3.0, 3.0, 3.0, 3.0, 3.0]}))
        self.assertEqual(found, {})

    def test_an_encoder_is_settled_only_against_its_very_bytes(self):
        encoders = {P + "encode/reference": [1.0] * 6, P + "encode/same": [5.0] * 6,
                    P + "encode/other": [5.0] * 6}
        digests = {P + "encode/reference": 7, P + "encode/same": 7, P + "encode/other": 8}
        found = race.simulate(result_of(encoders, digests))
        self.assertEqual(set(found), {P + "encode/same"})
        # Without digests (a run made before racing) no encoder is settled.
        self.assertEqual(race.simulate(result_of(encoders)), {})

    def test_compression_is_never_raced(self):
        found = race.simulate(result_of({P + "compress/gzip": [1.0] * 6,
                                         P + "compress/br": [30.0] * 6}))
        self.assertEqual(found, {})

    def test_other_operations_race_against_the_leader_alone(self):
        found = race.simulate(result_of({
            P + "parse-only/fast": [1.0] * 6, P + "parse-only/behind": [1.3] * 6,
            P + "parse-only/near": [1.2] * 6}))
        self.assertEqual(set(found), {P + "parse-only/behind"})

    def test_a_larger_margin_or_first_block_settles_fewer_and_later(self):
        times = {**CALL, P + "decode/fast/from:reference": [1.0] * 6,
                 P + "decode/slow/from:reference": [3.0] * 6}
        self.assertEqual(race.simulate(result_of(times), race.Rule(3, 1.0)), {})
        found = race.simulate(result_of(times), race.Rule(5, 0.25))
        self.assertEqual(found[P + "decode/slow/from:reference"][0], 5)


class Recorded(unittest.TestCase):
    TIMES = {**CALL, P + "decode/fast/from:reference": [1.0] * 6,
             P + "decode/slow/from:reference": [3.0] * 3 + [None] * 3}

    def test_a_run_that_decided_as_the_rule_checks_clean(self):
        found = result_of(self.TIMES, settled={P + "decode/slow/from:reference": 3})
        found.context["racing"] = ("settle X after round 3 or later when, in every round so "
                                   "far, t_X - t_L > 0.25 x base (...)")
        self.assertEqual(race.check(found), [])

    def test_a_decision_the_rule_does_not_make_is_reported(self):
        found = result_of(self.TIMES, settled={P + "decode/fast/from:reference": 3})
        self.assertEqual(race.check(found), [(P + "decode/fast/from:reference", 3, 0),
                                             (P + "decode/slow/from:reference", 0, 3)])

    def test_the_rule_is_read_from_the_context(self):
        rule = race.rule_of({"racing": "settle X after round 4 or later when, in every "
                                       "round so far, t_X - t_L > 0.40 x base (...)"})
        self.assertEqual(rule, race.Rule(4, 0.4))
        self.assertEqual(race.rule_of({}), race.Rule())
        self.assertFalse(race.racing({"racing": "off (--no-race): every competitor ..."}))


class SettledCalls(unittest.TestCase):
    def test_a_call_with_a_settled_part_has_its_min_max_and_is_never_tied(self):
        p = calls.Pairing("json", "message", 100, "reference", "slow", "none", 5000, 1e-6,
                          3e-6, cpu_rounds=(4e-6, 4.2e-6, 3.9e-6),
                          settled=("json/message/100/decode/slow/from:reference",))
        self.assertEqual(calls.cpu_interval(p), (3.9e-6, 4.2e-6))
        a = {"total": 1.0, "total_low": 0.9, "total_high": 1.1, "settled": False}
        b = {"total": 1.05, "total_low": 1.0, "total_high": 1.2, "settled": True}
        self.assertTrue(calls.overlaps(a, b))
        self.assertFalse(calls.tied(a, b))
        self.assertFalse(calls.tied(b, a))


if __name__ == "__main__":
    unittest.main()
