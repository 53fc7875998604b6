"""`bench --payload FEED --as-formats` on the built wirebench_bench (WIREBENCH_BUILD, which
ctest sets, or build/release; skipped without one): a generated OData v2 feed's rows are
encoded and decoded in every format the run says carries them, each encoding read back and
checked equal to the rows before it is timed, so a format that loses anything fails here."""

import json
import os
import pathlib
import subprocess
import tempfile
import unittest

from wbtools import report, results
from wbtools.page import chromium
from wbtools.results import as_formats
from wbtools.transfer import links

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("WIREBENCH_BUILD", ROOT / "build" / "release"))

@unittest.skipUnless((BUILD / "wirebench_bench").is_file() and (BUILD / "wirebench_cli").is_file(),
                     f"no wirebench_bench and wirebench_cli in {BUILD} (build them, or set "
                     "WIREBENCH_BUILD)")
class GeneratedFeed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="wirebench-as-formats-")
        folder = pathlib.Path(cls.tmp.name)
        cls.feed = folder / "feed.json"
        with open(cls.feed, "wb") as out:
            subprocess.run([str(BUILD / "wirebench_cli"), "encode", "--format", "json-verbose",
                            "--dataset", "science", "--rows", "100"], stdout=out, check=True)
        out_path = cls.out_path = folder / "20260101T000000Z-test-cpu-abc1234.json"
        # Each benchmark for a moment: the checks before timing are what this test is about.
        cls.proc = subprocess.run(
            [str(BUILD / "wirebench_bench"), f"--wirebench_payload=odata:json-verbose:{cls.feed}",
             "--wirebench_as_formats", "--benchmark_min_time=0.0001",
             "--benchmark_format=json",
             f"--benchmark_out={out_path}"],
            capture_output=True, text=True, timeout=300, check=False)
        cls.result = (json.loads(out_path.read_text(encoding="utf-8"))
                      if cls.proc.returncode == 0 else {"context": {}, "benchmarks": []})

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr[-2000:])

    def test_every_listed_format_round_trips(self):
        context = self.result["context"]
        self.assertEqual(context["as_formats.file:feed.rows"], "100")
        carried = [f.strip() for f in context["as_formats.file:feed.carried"].split(";")
                   if f.strip()]
        # The other OData dialects at least; the feed's own format is the file itself.
        self.assertTrue({"json", "json-v4", "atom", "atom-v2"} <= set(carried), carried)
        self.assertNotIn("json-verbose", carried)
        by_format = {}
        for entry in self.result["benchmarks"]:
            parts = entry["name"].split("/")
            if len(parts) < 4:
                continue  # the unit's probe, reference/byte-scan/{bytes}
            fmt, op = parts[0], parts[3]
            by_format.setdefault(fmt, []).append((op, entry))
        for fmt in carried:
            with self.subTest(format=fmt):
                ops = by_format.get(fmt, [])
                errors = [e["name"] + ": " + e.get("error_message", "")
                          for _, e in ops if e.get("error_occurred") or e.get("skipped")]
                self.assertEqual(errors, [])
                encodes = [e for op, e in ops if op == "encode"]
                self.assertTrue(encodes and any(op == "decode" for op, _ in ops), fmt)
                for e in encodes:
                    self.assertEqual(e["verified"], 1)
                    self.assertGreater(e["wire_bytes"], 0)
                    self.assertGreater(e["zstd_bytes"], 0)

    def test_formats_not_carried_say_why(self):
        context = self.result["context"]
        for item in context["as_formats.file:feed.not_carried"].split(";"):
            if item.strip():
                fmt, _, why = item.strip().partition(": ")
                self.assertTrue(why, item)
                skipped = [e for e in self.result["benchmarks"]
                           if e["name"].startswith(fmt + "/")]
                self.assertTrue(all(e.get("error_message", "").startswith("not carried")
                                    for e in skipped), fmt)

    def test_the_answer_and_the_table(self):
        [entry] = as_formats.table(results.load(str(self.out_path)))
        self.assertEqual((entry["name"], entry["format"], entry["rows"]),
                         ("feed", "json-verbose", 100))
        formats = {f["format"]: f for f in entry["formats"]}
        # JSON light and v4 drop v2's __metadata: smaller than the file, Atom larger.
        self.assertGreater(formats["json"]["smaller"], 1)
        self.assertLess(formats["atom"]["smaller"], 1)
        self.assertTrue(entry["answer"].startswith("your feed (feed, "), entry["answer"])
        self.assertIn("## Your feed as other formats", as_formats.markdown([entry]))

    @unittest.skipUnless(chromium.find(), "needs Chromium (package chromium)")
    def test_page_shows_the_table(self):
        out = pathlib.Path(self.tmp.name) / "report"
        result = results.load(str(self.out_path))
        report.write(result, list(links.load_links().values()), str(out))
        [entry] = as_formats.table(result)
        with chromium.Browser() as browser:
            for width, mobile in ((1400, False), (390, True)):
                browser.open(str(out / report.PAGE), width, 900, mobile=mobile)
                browser.drain()
                self.assertEqual(browser.console_errors, [])
                self.assertFalse(browser.evaluate(
                    "document.getElementById('as-formats-section').hidden"))
                answer = browser.evaluate(
                    "document.querySelector('#as-formats .payload-answer').textContent")
                self.assertTrue(answer.startswith("your feed (feed, "), answer)
                shown = browser.evaluate(
                    "[...document.querySelectorAll('#as-formats td b')]"
                    ".map((b) => b.textContent).join(' ')")
                self.assertEqual(sorted(shown.split()),
                                 sorted(f["format"] for f in entry["formats"]))

    def test_a_document_that_is_no_feed_is_refused(self):
        doc = pathlib.Path(self.tmp.name) / "doc.json"
        doc.write_text("[1, 2, 3]")
        proc = subprocess.run([str(BUILD / "wirebench_bench"), f"--wirebench_payload=json:{doc}",
                               "--wirebench_as_formats", "--benchmark_list_tests=true"],
                              capture_output=True, text=True, timeout=60, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--as-formats re-encodes an OData feed's rows; this file is json",
                      proc.stderr)

if __name__ == "__main__":
    unittest.main()
