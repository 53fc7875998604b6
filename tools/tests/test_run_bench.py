"""tools/commands/bench.sh around a benchmark executable: a band that holds no benchmark of the
run is skipped, a filter that matches nothing is an error that says so, a failing band says
which band failed and why, and the screen shows neither the context's codec labels nor a NaN
but each benchmark's median and, for a focused run, the competitors' ratios.

FakeBuild runs the script against tools/tests/fake_bench.py (Google Benchmark's behaviours
the script depends on, and a crash on request); RealBuild against the built wirebench_bench
(WIREBENCH_BUILD, which ctest sets, or build/release), skipped when there is none. Both write
into a temporary folder (--out-dir), never into results/.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

from wbtools.transfer import race
from wbtools import results

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "commands" / "bench.sh"
FAKE = ROOT / "tools" / "tests" / "fake_bench.py"
REAL_BUILD = pathlib.Path(os.environ.get("WIREBENCH_BUILD", ROOT / "build" / "release"))


def run_bench(build, out_dir, *args, env=None, timeout=600):
    return subprocess.run([str(SCRIPT), str(build), "--out-dir", str(out_dir), *args],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, check=False)


def result_path(test, proc, out_dir):
    """The result file the run printed last on stdout, checked to be in out_dir."""
    test.assertEqual(proc.returncode, 0, proc.stderr)
    path = pathlib.Path(proc.stdout.strip().splitlines()[-1])
    test.assertEqual(path.parent, pathlib.Path(out_dir).resolve())
    test.assertTrue(path.is_file(), path)
    return path


class ScreenChecks:
    """What the screen must not show, whatever the executable."""

    def assert_clean_screen(self, stderr):
        self.assertNotRegex(stderr, r"(?m)^codec\.", "the context's codec labels")
        self.assertNotRegex(stderr, r"(?i)nan%", "a NaN")
        self.assertNotIn("***WARNING***", stderr)
        self.assertEqual(stderr.count("Library was built as DEBUG"), 1, stderr)
        self.assertNotRegex(stderr, r"_(mean|stddev|cv) ", "aggregates other than the median")


class FakeBuild(unittest.TestCase, ScreenChecks):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="wirebench-run-bench-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.build = self.tmp / "build"
        self.out = self.tmp / "out"
        self.build.mkdir()
        for name in ("wirebench_bench", "wirebench_bench_memory"):
            (self.build / name).symlink_to(FAKE)

    def test_filter_matching_one_band_runs_that_band_alone(self):
        proc = run_bench(self.build, self.out, "--filter", "^atom/message/100/")
        path = result_path(self, proc, self.out)
        self.assertIn("rows 0-999 (min time 0.003 s, 6 rounds): 2 benchmarks", proc.stderr)
        self.assertNotIn("rows 1000-8099 (", proc.stderr)
        self.assert_clean_screen(proc.stderr)
        self.assertRegex(proc.stderr, r"(?m)^atom/message/100/decode/slow/from:reference_median ")
        self.assertRegex(proc.stderr, r"(?m)^ +fast +\S+ us \[\S+ us, \S+ us\] +fastest$")
        self.assertRegex(proc.stderr,
                         r"(?m)^ +slow +\S+ us \[\S+ us, \S+ us\] +2\.\d\dx \[2\.\d\d, 3\.\d\d\] "
                         r"slower$")
        result = json.loads(path.read_text(encoding="utf-8"))
        self.assertEqual([band["rows"] for band in result["context"]["bands"]], ["0-999"])
        # The competitors and, in every round, their unit's probe.
        self.assertEqual({b["run_name"] for b in result["benchmarks"]},
                         {"atom/message/100/decode/fast/from:reference",
                          "atom/message/100/decode/slow/from:reference",
                          "reference/byte-scan/100"})
        # The memory run's figures joined, for a focused run as for the whole suite.
        self.assertTrue(all(b.get("allocs_per_iter") == 3.0 for b in result["benchmarks"]
                            if b["run_type"] == "iteration"
                            and not b["run_name"].startswith("reference/")))
        # The paired figure of each competitor: the probe's fast time (1 us) x the median of
        # its 6 per-round ratios (the fake's times rise by a step a round).
        paired = {b["run_name"]: b for b in result["benchmarks"]
                  if b.get("aggregate_name") == "paired"}
        self.assertEqual(set(paired), {"atom/message/100/decode/fast/from:reference",
                                       "atom/message/100/decode/slow/from:reference"})
        slow = paired["atom/message/100/decode/slow/from:reference"]
        self.assertAlmostEqual(slow["paired_ratio"], 30.5)
        self.assertAlmostEqual(slow["cpu_time"], 30.5)
        # Of 6 rounds the sign test's 95 % interval is the smallest to the largest (96.9 %).
        self.assertAlmostEqual(slow["paired_ratio_low"], 30.0)
        self.assertAlmostEqual(slow["paired_ratio_high"], 31.0)

    def test_filter_matching_nothing_is_an_error(self):
        proc = run_bench(self.build, self.out, "--filter", "nomatch")
        self.assertEqual(proc.returncode, 2)
        self.assertTrue(proc.stderr.startswith("wirebench: error: no benchmark matches 'nomatch'"),
                        proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertEqual(list(self.out.iterdir()), [])

    def test_regex_that_does_not_compile_is_named(self):
        proc = run_bench(self.build, self.out, "--filter", "(")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("Could not compile benchmark re", proc.stderr)

    def test_failing_band_says_which_and_why(self):
        proc = run_bench(self.build, self.out, "--filter", "^atom/",
                         env={"FAKE_BENCH_CRASH": "1000-8099"})
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("wirebench: error: wirebench_bench on rows 1000-8099 (min time 0.005 s, 6 rounds) "
                      "failed (killed by SIGABRT)", proc.stderr)
        self.assertIn("  wirebench_bench: the fake's crash", proc.stderr)
        self.assertIn("no result file written", proc.stderr)
        self.assertNotIn("rows 8100- (", proc.stderr)
        self.assertEqual([p for p in self.out.iterdir() if p.suffix == ".json"], [])

    def test_one_repetition_shows_every_result_line(self):
        proc = run_bench(self.build, self.out, "--quick", "--filter", "^atom/science/")
        result_path(self, proc, self.out)
        self.assert_clean_screen(proc.stderr)
        self.assertRegex(proc.stderr, r"(?m)^atom/science/1000/decode/fast/from:reference +900")
        self.assertRegex(proc.stderr, r"(?m)^atom/science/8100/decode/fast/from:reference +9000")


@unittest.skipUnless((REAL_BUILD / "wirebench_bench").is_file()
                     and (REAL_BUILD / "wirebench_bench_memory").is_file(),
                     f"no wirebench_bench in {REAL_BUILD} (build it, or set WIREBENCH_BUILD)")
class RealBuild(unittest.TestCase, ScreenChecks):
    # Two XML decoders of one payload: one band, and no JSON decoder, so no conformance run.
    FOCUSED = "^atom/message/100/decode/(pugixml-dom|expat)/from:reference$"

    def setUp(self):
        self.out = pathlib.Path(tempfile.mkdtemp(prefix="wirebench-run-bench-"))
        self.addCleanup(shutil.rmtree, self.out)

    def test_focused_run_of_one_band(self):
        proc = run_bench(REAL_BUILD, self.out, "--filter", self.FOCUSED, "--no-race")
        path = result_path(self, proc, self.out)
        self.assert_clean_screen(proc.stderr)
        result = json.loads(path.read_text(encoding="utf-8"))
        iterations = [b for b in result["benchmarks"] if b["run_type"] == "iteration"]
        self.assertEqual({b["run_name"] for b in iterations},
                         {"atom/message/100/decode/pugixml-dom/from:reference",
                          "atom/message/100/decode/expat/from:reference",
                          "reference/byte-scan/4617"})
        # Each competitor once a round, 6 rounds (the default of the band), each round
        # opened and closed by the probe.
        for name in ("pugixml-dom", "expat"):
            runs = [b for b in iterations if f"/{name}/" in b["run_name"]]
            self.assertEqual(sorted(b["round"] for b in runs), list(range(6)))
            self.assertTrue(all(b["paired_ratio"] > 0 for b in runs))
        for round_id in {b["round_id"] for b in iterations}:
            sequence = sorted((b for b in iterations if b["round_id"] == round_id),
                              key=lambda b: b["round_slot"])
            self.assertEqual([b["paired_reference"] for b in sequence], [1, 0, 0, 1])
        self.assertEqual(result["context"]["run_scope"], "focused")
        self.assertEqual(result["context"]["run_kind"], "focused")
        self.assertIn("atom/message/100 decode from:reference", proc.stderr)
        self.assertRegex(proc.stderr, r"(?m)^ +(pugixml-dom|expat) +.* +fastest$")
        self.assertRegex(proc.stderr, r"(?m)^ +(pugixml-dom|expat) +.* \d+\.\d\dx \[")
        self.assertIsNone(re.search(r"conformance", proc.stderr), proc.stderr)

    def test_racing_run_records_its_decisions(self):
        # Whether a competitor is settled depends on the machine; what it records does not.
        filter_ = "^atom/message/100/(decode/[^/]+/from:reference|parse-only/[^/]+)$"
        proc = run_bench(REAL_BUILD, self.out, "--filter", filter_)
        path = result_path(self, proc, self.out)
        result = results.load(str(path))
        self.assertIn("t_X - t_L > 0.25", result.context["racing"])
        settled = [run for run in result.runs.values() if run.settled]
        for run in settled:
            self.assertEqual(len(run.cpu), run.settled["after"], run.name.full)
            self.assertGreaterEqual(run.settled["after"], race.FIRST_BLOCK)
            self.assertIn("leader ", run.settled["by"])
            self.assertIn("settled_after", run.paired)
            self.assertRegex(proc.stderr, re.escape(run.name.full) + r"_median .* \(settled\)")
        contenders = [run for run in result.runs.values()
                      if not run.settled and not run.probe and not run.error]
        self.assertTrue(contenders)
        for run in contenders:
            self.assertEqual(len(run.cpu), 6, run.name.full)
        # The process decided as the rule, applied to the file's own rounds, decides.
        self.assertEqual(race.check(result), [])

    def test_the_executable_owns_the_scope(self):
        # Any filter makes a run focused, "." too; no filter (whatever band) is the whole
        # suite; a thread run is not. run_bench.sh and the result's run_scope both ask this.
        def scope(*args):
            return subprocess.run([str(REAL_BUILD / "wirebench_bench"), "--wirebench_scope",
                                   *args], capture_output=True, text=True,
                                  check=True).stdout.strip()
        self.assertEqual(scope(), "whole")
        self.assertEqual(scope("--wirebench_rows=0-999", "--wirebench_rounds=6"), "whole")
        self.assertEqual(scope("--benchmark_filter=."), "focused")
        self.assertEqual(scope("--benchmark_filter=all"), "focused")
        self.assertEqual(scope("--wirebench_threads"), "focused")
        # A user's file makes it a payload run, whatever else it asks.
        self.assertEqual(scope("--wirebench_payload=json:x.json", "--benchmark_filter=."),
                         "payload")

    def test_payload_run_of_generated_files(self):
        # Two files the test writes: one every JSON parser reads, one none does. The run
        # times the first, says why the second is not timed, and ends 0 with its verdict.
        good, bad = self.out / "digits.json", self.out / "truncated.json"
        good.write_text("[" + ",".join(f"{i}.{i:07d}e-3" for i in range(2000)) + "]")
        bad.write_text('{"a":[1,2,')
        out = self.out / "out"
        proc = run_bench(REAL_BUILD, out, "--payload", str(good), str(bad), "--min-time",
                         "0.001")
        path = result_path(self, proc, out)
        result = results.load(str(path))
        self.assertEqual(result.context["run_scope"], "payload")
        size = good.stat().st_size
        parse = [run for run in result.runs.values()
                 if run.name.case == ("json", "file:digits", size) and run.name.op == "parse-only"]
        self.assertGreaterEqual(len(parse), 16)
        self.assertTrue(all(not run.error and run.paired for run in parse))
        failed = [run for run in result.failed() if run.name.dataset == "file:truncated"]
        self.assertGreaterEqual(len(failed), 16)
        verdict = json.loads(pathlib.Path(str(path)[:-len(".json")] + "-verdict.json")
                             .read_text(encoding="utf-8"))
        by_path = {f["path"]: f for f in verdict["files"]}
        self.assertEqual({v["verdict"] for v in by_path[str(bad)]["verdicts"]}, {"rejected"})
        self.assertEqual({v["verdict"] for v in by_path[str(good)]["verdicts"]}, {"accepted"})
        report_md = (path.parent / path.stem / "REPORT.md").read_text(encoding="utf-8")
        # The report opens with the answer.
        self.assertEqual(report_md.split("\n## ")[1].splitlines()[0],
                         "The answer for your payload")
        self.assertIn("**truncated: no parser accepted it.**", report_md)

    def test_payload_that_is_no_payload_is_one_line_and_exit_2(self):
        empty = self.out / "empty.json"
        empty.write_bytes(b"")
        proc = run_bench(REAL_BUILD, self.out / "out", "--payload", str(empty))
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr, f"wirebench payload-kind: {empty}: empty file\n")
        self.assertFalse((self.out / "out").exists())

    def test_filter_matching_nothing_is_an_error(self):
        proc = run_bench(REAL_BUILD, self.out, "--filter", "nomatch")
        self.assertEqual(proc.returncode, 2)
        self.assertTrue(proc.stderr.startswith("wirebench: error: no benchmark matches 'nomatch'"),
                        proc.stderr)
        self.assertEqual(list(self.out.iterdir()), [])


if __name__ == "__main__":
    unittest.main()
