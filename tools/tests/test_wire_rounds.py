"""The measured wire's rounds (wbtools/wire/wire_measure.py): the order of the groups, the cases
summarised across rounds and the flag on a case whose repetitions disagree."""

import io
import unittest
from unittest import mock

from wbtools.wire import wire_measure
from wbtools.cli import UserError


class Payload:
    def __init__(self, name, size):
        self.name, self.bytes = name, size


def request(size, series, connection, ms, round_index):
    return {"bytes": size, "series": series, "connection": connection, "last_byte_ms": ms,
            "first_byte_ms": ms / 2, "link_drops": 0, "round": round_index}


class Plan(unittest.TestCase):
    def test_every_group_once_a_round_in_a_fresh_order(self):
        groups = [("wan", "cubic"), ("wan", "bbr"), ("mobile", "cubic"), ("mobile", "reno")]
        runs = wire_measure.plan(groups, 5, seed=3)
        self.assertEqual(len(runs), 20)
        orders = []
        for index in range(5):
            this = [g for r, g in runs if r == index]
            self.assertEqual(sorted(this), sorted(groups))
            orders.append(tuple(this))
        # The round of each run is in order: round 0's groups first, then round 1's, ...
        self.assertEqual([r for r, _ in runs], sorted(r for r, _ in runs))
        self.assertGreater(len(set(orders)), 1)
        self.assertEqual(runs, wire_measure.plan(groups, 5, seed=3))


class Summary(unittest.TestCase):
    def test_a_stall_costs_one_repetition_and_flags_its_round(self):
        payload = Payload("json/science/1000", 164570)
        requests = []
        for index, warm_ms in enumerate([53.6, 133.9, 53.4]):
            requests += [request(164570, "cold", "cold", 205.0 + index, index),
                         request(164570, "warm", "cold", 205.0, index),  # the opening request
                         request(164570, "warm", "warm", warm_ms, index)]
        cases = {c["connection"]: c for c in wire_measure.summarise(requests, [payload])}
        self.assertEqual(cases["warm"]["median_ms"], 53.6)
        self.assertEqual(cases["warm"]["rounds"], [0, 1, 2])
        self.assertEqual(cases["warm"]["disagreeing_rounds"], [1])
        self.assertEqual(cases["cold"]["disagreeing_rounds"], [])
        self.assertEqual(cases["cold"]["repetitions"], 3)

    def test_a_spread_within_the_margin_is_no_flag(self):
        self.assertEqual(wire_measure.disagreeing([100.0, 109.0, 91.0], [0, 1, 2]), [])
        self.assertEqual(wire_measure.disagreeing([100.0, 111.0, 100.0], [0, 1, 2]), [1])



class SelfCheck(unittest.TestCase):
    def test_a_self_check_failing_every_attempt_costs_the_round_not_the_run(self):
        # A host stall fails the link's self-check: run_group tries again, then raises
        # SelfCheckFailed, which the matrix takes as one round of one group left out; any
        # other failure stays an error of the run.
        stall = ["sh", "-c", "echo 'wirebench_wire: self-check failed, nothing reported:' >&2; "
                             "echo '  echo RTT 41.0 ms is not within 0.8 ms' >&2; exit 1"]
        broken = ["sh", "-c", "echo 'wirebench_wire: cannot open the TUN device' >&2; exit 1"]
        log = io.StringIO()
        with mock.patch.object(wire_measure.time, "sleep") as slept:
            with self.assertRaisesRegex(wire_measure.SelfCheckFailed, "echo RTT 41.0 ms"):
                wire_measure.run_group(stall, log=log)
            self.assertEqual(slept.call_count, wire_measure.CHECK_ATTEMPTS - 1)
            with self.assertRaises(UserError) as raised:
                wire_measure.run_group(broken, log=log)
            self.assertNotIsInstance(raised.exception, wire_measure.SelfCheckFailed)
        self.assertEqual(log.getvalue().count("attempt"), wire_measure.CHECK_ATTEMPTS + 1)

if __name__ == "__main__":
    unittest.main()
