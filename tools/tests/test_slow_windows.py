"""The slow-windows experiment's figures (tools/commands/slow_windows.py): the slow share, drift,
the longest slow stretch and the runs test, on sequences made to have them."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "commands"))
import slow_windows  # noqa: E402


class Figures(unittest.TestCase):
    def test_a_window_of_slow_repetitions(self):
        times = [1.0] * 50 + [1.6] * 20 + [1.0] * 30
        row = slow_windows.summarise(times, repetition_s=0.5)
        self.assertEqual(row["slow_share"], 0.2)
        self.assertEqual(row["slow_share_first_half"], 0.0)
        self.assertEqual(row["slow_share_second_half"], 0.4)
        self.assertEqual(row["longest_slow_s"], 10.0)
        self.assertLess(row["runs_z"], -8)  # 3 runs where about 33 are expected

    def test_alternating_slowness_is_no_window(self):
        times = [1.0, 1.6] * 50
        row = slow_windows.summarise(times, repetition_s=0.5)
        self.assertEqual(row["slow_share"], 0.5)
        self.assertEqual(row["longest_slow_s"], 0.5)
        self.assertGreater(row["runs_z"], 8)

    def test_no_slow_repetition_has_no_runs_test(self):
        self.assertTrue(math.isnan(slow_windows.runs_z([False] * 10)))

    def test_the_table_names_a_skipped_setting(self):
        text = slow_windows.table([{"setting": "damon-off", "skipped": "no DAMON kdamond"}])
        self.assertIn("| damon-off | skipped: no DAMON kdamond |", text)


if __name__ == "__main__":
    unittest.main()
