"""Racing never settles a benchmark the answer is made of, shown on the runs in results/.

The answer (`./wirebench model`) is each link profile's fastest call per payload, and the
calls tied with it: encode + compress + transfer + decompress + decode. For every run of the
whole suite in rounds kept in results/, on every link profile of tools/links.json, warm and
cold:
- a run that raced: none of its settled benchmarks is part of a fastest call or of a call
  tied with it, no call with a settled part even overlaps a fastest call's interval (its own,
  wider, min-max interval included), and the process decided as the rule does on its data;
- a run that did not race (--no-race, or made before racing): the rule, applied to its rounds
  as if it had raced, settles none of the benchmarks its answer is made of, with every
  benchmark's full rounds deciding the answer.
"""

import os
import unittest

from wbtools.transfer import links, race
from wbtools import results
from wbtools.results import runs

RESULTS = os.path.join(os.path.dirname(__file__), "..", "..", "results")


def whole_runs_in_rounds():
    """[(name, ResultFile)] of the whole-suite runs in rounds in results/."""
    found = []
    for run in runs.scan(RESULTS):
        if not run.whole_suite or str(run.context.get("run_design")) != "rounds":
            continue
        main = next(p for p in run.paths if p.startswith(run.name + ".json"))
        found.append((run.name, results.load(os.path.join(RESULTS, main))))
    return found


class RacingAgainstTheAnswer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = whole_runs_in_rounds()
        cls.links = links.pick(links.load_links(None), None)

    def test_results_hold_a_run_to_check(self):
        self.assertTrue(self.runs, "no run of the whole suite in rounds in results/")

    def test_settled_benchmarks_are_never_in_the_answer(self):
        for name, result in self.runs:
            with self.subTest(run=name):
                answer = race.in_answer(result, self.links)
                self.assertGreater(answer.cases, 0)
                if race.racing(result.context):
                    settled = {n for n, run in result.runs.items() if run.settled}
                    self.assertTrue(settled, "a racing run of the whole suite settled nothing")
                    self.assertEqual(sorted(settled & answer.parts), [])
                    self.assertEqual(answer.settled_overlaps, [])
                    self.assertEqual(race.check(result), [])
                else:
                    would = race.simulate(result)
                    # Not vacuous: the rule settles many of a whole run's benchmarks.
                    self.assertGreater(len(would), 1000)
                    self.assertEqual(sorted(set(would) & answer.parts), [])


if __name__ == "__main__":
    unittest.main()
