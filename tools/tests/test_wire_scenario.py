"""`wirebench wire --scenario NAME` saved: the arguments, the lines by kind, the file's name and
its atomic, never-overwriting write, the runner against a stand-in executable (a small script
that prints JSON lines as wirebench_wire does), the report's choice of files and the page's
data of one file."""

import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

from wbtools.wire import scenario_run
from wbtools.cli import UserError
from wbtools.page import data as page_data

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = os.path.join(TOOLS, "commands")
sys.path.insert(0, COMMANDS)
import report as report_command  # noqa: E402  (tools/commands/report.py, the entry script)
import wire_scenario  # noqa: E402  (tools/commands/wire_scenario.py, the entry script)

SAMPLE = os.path.join(TOOLS, "tests", "data", "scenario-poc-sample.json")
SYNTHETIC = os.path.join(TOOLS, "tests", "data", "synthetic.json")

# What a scenario prints, as wirebench_wire prints it: its context and self-check first, a
# call, a server error, a series' result; progress on stderr. It echoes its arguments in the
# context line, and STATUS chooses its exit status.
STAND_IN = r"""
print("wirebench_wire: demo: self-check of the link", file=sys.stderr, flush=True)
if "--scenario" in sys.argv and sys.argv[sys.argv.index("--scenario") + 1] == "list":
    print("demo     a scenario of the test")
    sys.exit(0)
status = int(os.environ.get("STATUS", "0"))
if status == 2:
    print("wirebench_wire: no scenario nosuch (--scenario list)", file=sys.stderr)
    sys.exit(2)
lines = [
    {"type": "context", "scenario": "demo", "argv": sys.argv[1:],
     "link": {"rate_mbps": 20.0, "rtt_ms": 20.0}},
    {"type": "check", "result": {"ok": True, "rtt_median_ms": 20.1, "rtt_expected_ms": 20.0,
                                 "ip_rate_mbps": 19.9, "rate_error_pct": -0.5}},
    {"type": "http_request", "series": "json", "index": 0, "total_ms": 12.5, "error": None},
    {"type": "http_server_error", "error": "the client stopped reading"},
    {"type": "scenario_result", "scenario": "demo", "series": "json", "calls": 1,
     "failed": 0, "seconds": 0.0125, "published_seconds": 0.02, "published": "20 ms"},
]
for line in lines:
    print(json.dumps(line), flush=True)
print("not a JSON line")
print("wirebench_wire: demo: json: 1 calls in 0.01 s", file=sys.stderr, flush=True)
if status:
    print("wirebench_wire: the forwarder stopped", file=sys.stderr)
sys.exit(status)
"""


class Arguments(unittest.TestCase):
    def test_the_scenario_name_and_values_that_look_like_options(self):
        self.assertEqual(scenario_run.scenario_name(["--congestion", "bbr", "--scenario", "poc"]),
                         "poc")
        self.assertEqual(scenario_run.scenario_name(["--sysctl", "--scenario", "--check"]), None)
        self.assertIsNone(scenario_run.scenario_name(["--scenario"]))

    def test_own_options_are_taken_out_and_the_rest_passed_in_order(self):
        own, passed = wire_scenario.split_args(
            ["--scenario", "poc", "--out", "x.json", "--sysctl", "net.a=1", "--build=B",
             "--no-save", "--initcwnd", "4"])
        self.assertEqual((own["out"], own["build"], own["save"]), ("x.json", "B", False))
        self.assertEqual(passed, ["--scenario", "poc", "--sysctl", "net.a=1", "--initcwnd", "4"])
        with self.assertRaisesRegex(UserError, "--out needs a value"):
            wire_scenario.split_args(["--scenario", "poc", "--out"])


class Lines(unittest.TestCase):
    def test_each_kind_in_its_list_as_printed(self):
        lines = ['{"type": "context", "scenario": "x", "link": {}}', "",
                 '{"type": "check", "result": {"ok": true}}',
                 '{"type": "http_request", "series": "a"}',
                 '{"type": "fault", "case": "bad query"}', "[1, 2]", "garbage",
                 '{"type": "scenario_result", "series": "a"}']
        parts = scenario_run.parse_lines(lines)
        self.assertEqual(parts["context"], {"scenario": "x", "link": {}})
        self.assertEqual(parts["checks"], [{"type": "check", "result": {"ok": True}}])
        self.assertEqual(parts["requests"], [{"type": "http_request", "series": "a"}])
        self.assertEqual(parts["results"], [{"type": "scenario_result", "series": "a"}])
        self.assertEqual(parts["other"], [{"type": "fault", "case": "bad query"}])
        self.assertEqual(parts["not_json"], ["[1, 2]", "garbage"])


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_named_by_stamp_machine_commit_and_scenario_never_overwritten(self):
        context = {"stamp": "20261202T010203Z", "machine": "amd-epyc-f26m2",
                   "short_commit": "abc1234"}
        first = scenario_run.write_new({"n": 1}, scenario_run.default_paths(
            self.dir.name, context, "poc"))
        second = scenario_run.write_new({"n": 2}, scenario_run.default_paths(
            self.dir.name, context, "poc"))
        self.assertEqual(os.path.basename(first),
                         "20261202T010203Z-amd-epyc-f26m2-abc1234-poc-scenario.json")
        self.assertEqual(os.path.basename(second),
                         "20261202T010203Z-amd-epyc-f26m2-abc1234-poc-1-scenario.json")
        with open(first, encoding="utf-8") as handle:
            self.assertEqual(json.load(handle), {"n": 1})
        self.assertEqual(stat.S_IMODE(os.stat(first).st_mode), 0o644)
        # No temporary file is left behind.
        self.assertEqual(sorted(os.listdir(self.dir.name)),
                         sorted(map(os.path.basename, (first, second))))

    def test_the_newest_of_each_scenario_of_one_machine(self):
        for name in ("20261201T010000Z-amd-epyc-f26m2-abc1234-poc-scenario.json",
                     "20261202T010000Z-amd-epyc-f26m2-abc1234-poc-scenario.json",
                     "20261202T010000Z-amd-epyc-f26m2-abc1234-poc-1-scenario.json",
                     "20261201T010000Z-amd-epyc-f26m2-unknown-azure-scenario.json",
                     "20261203T010000Z-intel-xeon-platinum-8481c-f6m143-abc1234-poc-scenario.json",
                     "20261203T010000Z-amd-epyc-f26m2-abc1234-wire.json"):
            with open(os.path.join(self.dir.name, name), "w", encoding="utf-8") as handle:
                handle.write("{}")
        found = scenario_run.newest_per_scenario(self.dir.name, "amd-epyc-f26m2")
        self.assertEqual({k: os.path.basename(v) for k, v in found.items()}, {
            "azure": "20261201T010000Z-amd-epyc-f26m2-unknown-azure-scenario.json",
            "poc": "20261202T010000Z-amd-epyc-f26m2-abc1234-poc-1-scenario.json"})
        xeon = scenario_run.newest_per_scenario(self.dir.name, "intel-xeon-platinum-8481c-f6m143")
        self.assertEqual(list(xeon), ["poc"])


class Runner(unittest.TestCase):
    """The entry script against a stand-in for wirebench_wire."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        path = os.path.join(self.dir.name, "wirebench_wire")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"#!{sys.executable}\nimport json, os, sys\n{STAND_IN}\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        self.out = os.path.join(self.dir.name, "run.json")
        self.addCleanup(os.environ.pop, "STATUS", None)

    def main(self, *args, status=0):
        os.environ["STATUS"] = str(status)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = wire_scenario.main(["--build", self.dir.name, *args])
        return code, out.getvalue(), err.getvalue()

    def saved(self):
        with open(self.out, encoding="utf-8") as handle:
            return json.load(handle)

    def test_saves_every_line_by_kind_with_the_context(self):
        code, out, err = self.main("--scenario", "demo", "--congestion", "bbr", "--out", self.out)
        self.assertEqual(code, 0)
        self.assertEqual(out.strip(), os.path.relpath(self.out))
        # Progress passes through; the JSON lines go to the file, not the terminal.
        self.assertIn("wirebench_wire: demo: json: 1 calls in 0.01 s", err)
        run = self.saved()
        self.assertEqual((run["type"], run["scenario"], run["exit_status"]),
                         ("wirebench-scenario", "demo", 0))
        context = run["context"]
        self.assertEqual(context["argv"], ["--scenario", "demo", "--congestion", "bbr"])
        self.assertEqual(context["link"], {"rate_mbps": 20.0, "rtt_ms": 20.0})
        self.assertEqual(context["command"], ["wirebench", "wire", "--build", self.dir.name,
                                              "--scenario", "demo", "--congestion", "bbr",
                                              "--out", self.out])
        for key in ("git_commit", "machine", "cpu_model", "date", "host", "kernel"):
            self.assertTrue(context.get(key), key)
        self.assertEqual([c["result"]["rtt_median_ms"] for c in run["checks"]], [20.1])
        self.assertEqual([r["series"] for r in run["results"]], ["json"])
        self.assertEqual(run["results"][0]["published_seconds"], 0.02)
        self.assertEqual([r["total_ms"] for r in run["requests"]], [12.5])
        self.assertEqual([o["type"] for o in run["other"]], ["http_server_error"])
        self.assertEqual(run["not_json"], ["not a JSON line"])
        self.assertNotIn("stderr_tail", run)

    def test_a_failing_scenario_keeps_its_status_and_what_it_printed(self):
        code, _, err = self.main("--scenario", "demo", "--out", self.out, status=1)
        self.assertEqual(code, 1)
        self.assertIn("failed (exit 1)", err)
        run = self.saved()
        self.assertEqual(run["exit_status"], 1)
        self.assertEqual(len(run["results"]), 1)
        self.assertEqual(run["stderr_tail"][-1], "wirebench_wire: the forwarder stopped")

    def test_nothing_run_nothing_saved(self):
        code, out, err = self.main("--scenario", "nosuch", "--out", self.out, status=2)
        self.assertEqual((code, out), (2, ""))
        self.assertIn("no scenario nosuch", err)
        self.assertFalse(os.path.exists(self.out))

    def test_an_existing_out_file_is_refused_before_the_run(self):
        with open(self.out, "w", encoding="utf-8") as handle:
            handle.write("keep")
        with self.assertRaisesRegex(UserError, "exists already"):
            self.main("--scenario", "demo", "--out", self.out)
        with open(self.out, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), "keep")

    def script(self, *args):
        return subprocess.run([sys.executable, os.path.join(COMMANDS, "wire_scenario.py"),
                               "--build", self.dir.name, *args], capture_output=True,
                              text=True, check=False, env={**os.environ, "STATUS": "0"})

    def test_a_listing_and_no_save_run_the_executable_itself(self):
        listing = self.script("--scenario", "list")
        self.assertEqual((listing.returncode, listing.stdout),
                         (0, "demo     a scenario of the test\n"))
        unsaved = self.script("--scenario", "demo", "--no-save")
        self.assertEqual(unsaved.returncode, 0)
        self.assertEqual(json.loads(unsaved.stdout.splitlines()[0])["type"], "context")

    def test_a_missing_executable_is_one_line(self):
        proc = subprocess.run([sys.executable, os.path.join(COMMANDS, "wire_scenario.py"),
                               "--build", os.path.join(self.dir.name, "none"), "--scenario",
                               "demo"], capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("no wirebench_wire", proc.stderr)


class PageData(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SAMPLE, encoding="utf-8") as handle:
            cls.sample = json.load(handle)
        cls.data = page_data.scenario_data({**cls.sample, "file": "sample.json"})

    def test_published_fields_beside_ours_and_one_table_per_kind_of_series(self):
        one, concurrent = self.data["tables"]
        self.assertEqual(one["columns"][0], "series")
        self.assertEqual(one["columns"][-1], "published")
        columns = one["columns"]
        self.assertEqual(columns.index("published_body_bytes"), columns.index("body_bytes") + 1)
        self.assertEqual([r[0] for r in one["rows"]], ["atom/10", "json/10", "atom/100",
                                                       "json/100"])
        self.assertEqual([r[0] for r in concurrent["rows"]],
                         ["concurrent atom/100", "concurrent json/100"])
        # Every figure of every scenario_result line is in a table, under its own name.
        for line, (table, row) in zip(self.sample["results"],
                                      [(one, r) for r in one["rows"]] +
                                      [(concurrent, r) for r in concurrent["rows"]]):
            shown = dict(zip(table["columns"], row))
            self.assertEqual(shown, {k: v for k, v in line.items()
                                     if k not in ("type", "scenario")})

    def test_a_new_scenarios_fields_need_no_page_change(self):
        columns = page_data.scenario_columns([
            {"type": "scenario_result", "series": "a", "knob": "routing", "saving_ms": 3.0,
             "published": "note", "published_saving_ms": 4.0, "published_other": 1,
             "failed": 0}])
        self.assertEqual(columns, ["series", "knob", "saving_ms", "published_saving_ms",
                                   "published_other", "failed", "published"])

    def test_self_check_calls_and_failures(self):
        (check,) = self.data["checks"]
        result = self.sample["checks"][0]["result"]
        self.assertEqual((check["rtt_ms"], check["rate_mbps"], check["ok"]),
                         (result["rtt_median_ms"], result["ip_rate_mbps"], True))
        self.assertEqual(check["configured_rate_mbps"], self.sample["context"]["link"]["rate_mbps"])
        self.assertEqual(self.data["calls"], len(self.sample["requests"]))
        self.assertEqual(self.data["failed_calls"],
                         sum(1 for r in self.sample["requests"] if r["error"]))
        self.assertEqual(self.data["other"][0]["type"], "http_server_error")
        self.assertEqual(self.data["exit_status"], 0)
        self.assertIsNone(self.data["why"])

    def test_a_failed_run_says_why(self):
        failed = page_data.scenario_data({"type": "wirebench-scenario", "scenario": "wcf",
                                          "context": {}, "checks": [], "results": [],
                                          "requests": [], "other": [], "exit_status": 1,
                                          "stderr_tail": ["progress", "self-check failed"]})
        self.assertEqual((failed["exit_status"], failed["why"]), (1, "self-check failed"))
        self.assertEqual((failed["tables"], failed["checks"]), ([], []))


class ReportChoice(unittest.TestCase):
    def test_default_files_are_the_machines_newest_and_a_wrong_file_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(SYNTHETIC, encoding="utf-8") as handle:
                result = json.load(handle)
            result["context"]["cpu_model"] = "AMD EPYC (family 26, model 2, stepping 1)"
            path = os.path.join(tmp, "20261202T000000Z-amd-epyc-f26m2-abc1234.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(result, handle)
            with open(SAMPLE, encoding="utf-8") as handle:
                sample = handle.read()
            for name in ("20261201T000000Z-amd-epyc-f26m2-abc1234-poc-scenario.json",
                         "20261202T000000Z-amd-epyc-f26m2-abc1234-poc-scenario.json",
                         "20261203T000000Z-intel-xeon-f6m143-abc1234-poc-scenario.json"):
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as handle:
                    handle.write(sample)
            from wbtools import results
            loaded = results.load(path)
            chosen = report_command._scenarios(None, tmp, loaded)
            self.assertEqual([c["file"] for c in chosen],
                             ["20261202T000000Z-amd-epyc-f26m2-abc1234-poc-scenario.json"])
            self.assertEqual(chosen[0]["scenario"], "poc")
            with self.assertRaisesRegex(UserError, "not a `wirebench wire --scenario"):
                report_command._scenarios([path], tmp, loaded)


if __name__ == "__main__":
    unittest.main()
