"""`wirebench ab`: the run order, reading Google Benchmark's JSON, the per-round ratios, and
the runner against stand-in executables (small scripts that print a report)."""

import json
import os
import stat
import sys
import tempfile
import unittest

from wbtools.compare import ab
from wbtools.cli import UserError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "commands"))
import ab as ab_command  # noqa: E402  (tools/commands/ab.py, the entry script)


def report(*entries):
    return {"context": {}, "benchmarks": list(entries)}


def entry(name, cpu_time, unit="ns", **extra):
    return {"name": name, "run_type": "iteration", "cpu_time": cpu_time, "real_time": cpu_time,
            "time_unit": unit, **extra}


class Order(unittest.TestCase):
    def test_each_round_runs_both_and_the_first_runner_alternates(self):
        self.assertEqual(ab.order(3), [("old", 0), ("new", 0), ("new", 1), ("old", 1),
                                       ("old", 2), ("new", 2)])

    def test_one_round(self):
        self.assertEqual(ab.order(1), [("old", 0), ("new", 0)])


class CpuTimes(unittest.TestCase):
    def test_units_become_seconds(self):
        times = ab.cpu_times(report(entry("a", 1500, "ns"), entry("b", 2.5, "us"),
                                    entry("c", 3, "ms"), entry("d", 1, "s")))
        expected = {"a": 1.5e-6, "b": 2.5e-6, "c": 3e-3, "d": 1.0}
        self.assertEqual(times.keys(), expected.keys())
        for name, seconds in expected.items():
            self.assertAlmostEqual(times[name], seconds, delta=seconds * 1e-12)

    def test_aggregates_and_errors_are_left_out(self):
        times = ab.cpu_times(report(entry("a", 10), entry("a_mean", 10, run_type="aggregate"),
                                    entry("bad", 5, error_occurred=True)))
        self.assertEqual(times, {"a": 1e-8})

    def test_an_unknown_unit_is_a_user_error(self):
        with self.assertRaises(UserError):
            ab.cpu_times(report(entry("a", 1, "fortnights")))


class Summarize(unittest.TestCase):
    def test_ratios_are_taken_within_rounds(self):
        # The machine slows down 2x between rounds; new is 10 % faster within each round.
        old = [{"x": 1.0}, {"x": 2.0}, {"x": 4.0}]
        new = [{"x": 0.9}, {"x": 1.8}, {"x": 3.6}]
        rows, partial = ab.summarize(old, new)
        self.assertEqual(partial, [])
        (row,) = rows
        self.assertEqual(row["name"], "x")
        self.assertAlmostEqual(row["ratio"], 0.9)
        self.assertAlmostEqual(row["ratio_min"], 0.9)
        self.assertAlmostEqual(row["ratio_max"], 0.9)
        self.assertEqual((row["old"], row["new"]), (2.0, 1.8))
        # The samples overlap, so the U-test sees no clear difference; the per-round ratio does.
        self.assertGreater(row["p"], 0.05)

    def test_a_clear_difference_has_a_small_p(self):
        old = [{"x": 1.0 + i / 100} for i in range(6)]
        new = [{"x": 2.0 + i / 100} for i in range(6)]
        (row,), _ = ab.summarize(old, new)
        self.assertLess(row["p"], 0.01)
        self.assertGreater(row["ratio"], 1.9)

    def test_names_missing_from_a_run_are_reported_not_compared(self):
        rows, partial = ab.summarize([{"x": 1.0, "y": 1.0}], [{"x": 1.0}])
        self.assertEqual([r["name"] for r in rows], ["x"])
        self.assertEqual(partial, ["y"])

    def test_table_marks_small_p(self):
        rows = [{"name": "x", "old": 1e-3, "new": 5e-4, "ratio": 0.5, "ratio_min": 0.4,
                 "ratio_max": 0.6, "p": 0.002}]
        text = ab.table(rows)
        self.assertIn("| `x` | 1 ms | 500 us | 0.500x | 0.400-0.600 | 0.002 * | - |", text)

    def test_call_on_the_rounds_ratios(self):
        # A slow stretch in rounds 3-4 moves both sides; new is 5 % slower in every round.
        old = [{"x": t} for t in (1.0, 1.01, 1.6, 1.62, 0.99, 1.0)]
        new = [{"x": t * 1.05} for t in (1.0, 1.01, 1.6, 1.62, 0.99, 1.0)]
        (row,), _ = ab.summarize(old, new)
        self.assertEqual(row["call"], "slower")
        self.assertGreater(row["interval"].low, 1.0)
        self.assertGreater(row["p"], 0.05)  # the U-test, unpaired, cannot tell
        self.assertIn("1 benchmarks: 1 slower.", ab.table([row]))
        # Under the minimum change, or mixed: same; fewer than 6 rounds: not called.
        small = [{"x": t["x"] * 1.02 / 1.05} for t in new]
        self.assertEqual(ab.summarize(old, small)[0][0]["call"], "same")
        mixed = [{"x": t["x"] * f} for t, f in zip(old, (1.1, 0.9, 1.1, 0.9, 1.1, 0.9))]
        self.assertEqual(ab.summarize(old, mixed)[0][0]["call"], "same")
        self.assertEqual(ab.summarize(old[:5], new[:5])[0][0]["call"], "too few rounds")


class Runner(unittest.TestCase):
    """run_once and the entry script against stand-in executables."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def executable(self, name, body):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"#!{sys.executable}\nimport json, os, sys\n{body}\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def test_reads_the_report_and_passes_filter_and_environment(self):
        path = self.executable("bench", (
            "args = dict(a.split('=', 1) for a in sys.argv[1:])\n"
            "assert args['--benchmark_format'] == 'json'\n"
            "t = 2.0 if os.environ['GLIBC_TUNABLES'] == 'T' else 99.0\n"
            "print(json.dumps({'benchmarks': [{'name': args['--benchmark_filter'],"
            " 'run_type': 'iteration', 'cpu_time': t, 'time_unit': 'ms'}]}))"))
        times = ab.run_once(path, "f", 0.01, None, "T", "label")
        self.assertEqual(times, {"f": 2e-3})

    def test_a_failing_executable_is_a_user_error(self):
        path = self.executable("fails", "sys.stderr.write('boom'); sys.exit(3)")
        with self.assertRaisesRegex(UserError, "exit 3"):
            ab.run_once(path, "f", 0.01, None, "T", "label")

    def test_no_match_is_a_user_error(self):
        path = self.executable("empty", "print(json.dumps({'benchmarks': []}))")
        with self.assertRaisesRegex(UserError, "no benchmark matches"):
            ab.run_once(path, "f", 0.01, None, "T", "label")

    def test_the_entry_script_compares_two_executables(self):
        # "old" takes 2 ms, "new" 1 ms: new/old 0.5 in every round.
        template = ("print(json.dumps({{'benchmarks': [{{'name': 'x', 'run_type': 'iteration',"
                    " 'cpu_time': {}, 'time_unit': 'ms'}}]}}))")
        old = self.executable("old", template.format(2.0))
        new = self.executable("new", template.format(1.0))
        out = os.path.join(self.dir.name, "out.txt")
        with open(out, "w", encoding="utf-8") as handle:
            saved, sys.stdout = sys.stdout, handle
            try:
                saved_err, sys.stderr = sys.stderr, open(os.devnull, "w", encoding="utf-8")
                code = ab_command.main([old, new, "--filter", "x", "--rounds", "3", "--cpu", "0",
                                        "--min-time", "0.01"])
            finally:
                sys.stderr.close()
                sys.stdout, sys.stderr = saved, saved_err
        self.assertEqual(code, 0)
        with open(out, encoding="utf-8") as handle:
            text = handle.read()
        self.assertIn("| `x` | 2 ms | 1 ms | 0.500x | 0.500-0.500 |", text)

    def test_an_unknown_spec_is_a_user_error(self):
        with self.assertRaisesRegex(UserError, "neither an executable"):
            ab_command.resolve(os.path.join(self.dir.name, "no-such-thing"))


if __name__ == "__main__":
    unittest.main()
