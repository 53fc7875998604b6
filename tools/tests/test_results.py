"""Reading result files: names, repetitions, errors, and bad files as one line + exit code 2."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

from wbtools.transfer import calls
from wbtools import results

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = os.path.join(os.path.dirname(HERE), "commands")
DATA = os.path.join(HERE, "data")
FIXTURE = os.path.join(DATA, "synthetic.json")


class Names(unittest.TestCase):
    def test_suffixes_are_stripped(self):
        for name in ("json/airport/101/encode/rapidjson_median",
                     "json/airport/101/encode/rapidjson/threads:1",
                     "json/airport/101/encode/rapidjson/repeats:3/threads:1_cv",
                     "json/airport/101/encode/rapidjson/min_time:0.050/real_time_BigO"):
            with self.subTest(name=name):
                self.assertEqual(results.strip_suffixes(name), "json/airport/101/encode/rapidjson")

    def test_fields(self):
        name = results.parse_name("json/airport/101/decode/simdjson-ondemand/from:rapidjson_mean")
        self.assertEqual((name.format, name.dataset, name.rows, name.op, name.library, name.source),
                         ("json", "airport", 101, "decode", "simdjson-ondemand", "rapidjson"))
        reference = results.parse_name("reference/memcpy/16016")
        self.assertTrue(reference.is_reference)
        self.assertEqual((reference.op, reference.size), ("memcpy", 16016))
        self.assertEqual(results.parse_name("json/a/10/compress/brotli").library, "br")
        self.assertEqual(results.parse_name("something_else").format, "")


class Loading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = results.load(FIXTURE)

    def test_repetitions_and_spread(self):
        run = self.result.get("json/airport/101/encode/rapidjson")
        self.assertEqual(len(run.cpu), 3)  # aggregates are not repetitions
        self.assertAlmostEqual(run.median(), 30e-6)
        low, high, cv = run.spread()
        self.assertAlmostEqual(low, 30e-6)
        self.assertAlmostEqual(high, 36e-6)
        # mean 32 us, sample stddev sqrt(12) us
        self.assertAlmostEqual(cv, math.sqrt(12) / 32)
        self.assertAlmostEqual(run.median("real"), 45e-6)
        self.assertEqual(run.counter("wire_bytes"), 16000)

    def test_failed_runs_are_kept_apart(self):
        failed = {run.name.library: run.error for run in self.result.failed()}
        self.assertEqual(failed, {"nlohmann-sax": "round trip mismatch at row 3",
                                  "boost-json": "not built"})
        self.assertIsNone(self.result.get("json/airport/101/decode/nlohmann-sax/from:reference"))

    def test_pairings(self):
        pairings = calls.collect(self.result)
        airport_json = [p for p in pairings.items if (p.format, p.dataset) == ("json", "airport")]
        labels = sorted((p.serializer, p.parser, p.compression) for p in airport_json)
        self.assertEqual(labels, [
            ("rapidjson", "rapidjson-dom", "gzip"), ("rapidjson", "rapidjson-dom", "none"),
            ("rapidjson", "simdjson-ondemand", "gzip"), ("rapidjson", "simdjson-ondemand", "none"),
            ("reference", "rapidjson-dom", "gzip"), ("reference", "rapidjson-dom", "none")])
        gzip = next(p for p in airport_json if p.compression == "gzip")
        self.assertEqual(gzip.wire_bytes, 4000)
        self.assertAlmostEqual(gzip.compress, 100e-6)
        # The science payloads have no decoder: they stay in, with a note.
        self.assertTrue(any("science" in note for note in pairings.notes))


class AggregatesOnly(unittest.TestCase):
    """--benchmark_report_aggregates_only files: medians and counters from the aggregates."""

    def test_medians_without_repetitions(self):
        with open(FIXTURE, encoding="utf-8") as handle:
            data = json.load(handle)
        data["benchmarks"] = [b for b in data["benchmarks"] if b.get("run_type") == "aggregate"]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(data, handle)
        try:
            run = results.load(handle.name).get("json/airport/101/encode/rapidjson")
        finally:
            os.unlink(handle.name)
        self.assertEqual(run.cpu, [])
        self.assertAlmostEqual(run.median(), 30e-6)  # the _median aggregate
        self.assertEqual(run.counter("wire_bytes"), 16000)
        low, high, _ = run.spread()
        self.assertTrue(math.isnan(low) and math.isnan(high))


class BadFiles(unittest.TestCase):
    """Every tool answers a bad result file with one line on stderr and exit code 2."""

    def run_tool(self, tool, *args):
        return subprocess.run([sys.executable, os.path.join(COMMANDS, tool), *args],
                              capture_output=True, text=True, timeout=120)

    def test_bad_files(self):
        bad = {"truncated.json": "truncated", "not_json.txt": "not valid JSON",
               "not_benchmark.json": "not a Google Benchmark result file",
               "missing.json": "cannot read"}
        for tool, extra in (("model.py", ()), ("report.py", ("--out", os.devnull)),
                            ("compare.py", (FIXTURE,))):
            for name, message in bad.items():
                with self.subTest(tool=tool, file=name):
                    done = self.run_tool(tool, os.path.join(DATA, name), *extra)
                    self.assertEqual(done.returncode, 2, done.stderr)
                    self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
                    self.assertIn(message, done.stderr)
                    self.assertNotIn("Traceback", done.stderr)

    def test_unknown_link(self):
        done = self.run_tool("model.py", FIXTURE, "--link", "carrier-pigeon")
        self.assertEqual(done.returncode, 2)
        self.assertIn("unknown link", done.stderr)


if __name__ == "__main__":
    unittest.main()


class ModelCommand(unittest.TestCase):
    def test_json_output_is_valid_json(self):
        done = subprocess.run([sys.executable, os.path.join(COMMANDS, "model.py"), FIXTURE, "--json",
                               "--link", "lan"], capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        data = json.loads(done.stdout)
        self.assertEqual([link["name"] for link in data["links"]], ["lan"])
        first = data["links"][0]["pairings"][0]
        self.assertAlmostEqual(first["seconds"]["total"],
                               first["seconds"]["cpu"] + first["seconds"]["wire"])
        self.assertAlmostEqual(data["relay_2009_fit"]["bandwidth_bps"], 1_548_288.0, places=3)

    def test_help(self):
        for tool in ("model.py", "report.py", "compare.py"):
            done = subprocess.run([sys.executable, os.path.join(COMMANDS, tool), "--help"],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0)
            self.assertIn("usage: wirebench", done.stdout)
