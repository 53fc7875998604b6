"""Pages of focused runs: 1, 2 and 10 benchmarks, cut out of the published run by a filter in
the test (as `wirebench bench --filter REGEX` would time them), each with no console error,
saying what it holds and what it does not, and showing its competitors with their ratio.

The published run is the newest run of the whole suite under results/
(tools/wbtools/results/runs.py); without one the tests skip and say so.
"""

import json
import os
import re
import tempfile
import unittest

from wbtools.transfer import links, calls
from wbtools.results import paired, runs
from wbtools import report, results, stats
from wbtools.page import chromium, data as page_data
from wbtools.cli import read_text

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "..", "results")
# Runs of a user's first comparisons: one decoder, two decoders of one payload, and two
# formats with an encoder, two decoders and zstd each (enough for a link model).
FILTERS = {
    1: r"^json/message/100/decode/simdjson-dom/from:reference$",
    2: r"^json/message/100/decode/(rapidjson-dom|simdjson-dom)/from:reference$",
    10: r"^(json/message/100/decode/(rapidjson-dom|simdjson-dom)/from:reference"
        r"|atom/message/100/decode/(pugixml-dom|expat)/from:reference"
        r"|(json|atom)/message/100/(encode/reference|compress/zstd|decompress/zstd))$",
}
needs_chromium = unittest.skipUnless(
    chromium.find(), f"Chromium is not installed (Debian package '{chromium.PACKAGE}', "
    "which tools/lib.sh installs)")


def published_path():
    """The newest whole-suite run in results/, or None."""
    whole = runs.published(runs.scan(RESULTS))
    if not whole:
        return None
    newest = max(whole.values(), key=lambda run: run.name)
    return os.path.join(RESULTS, newest.paths[0])  # NAME.json or NAME.json.gz


PUBLISHED = published_path()
needs_published = unittest.skipUnless(PUBLISHED, "no published run of the whole suite under "
                                                 "results/ to cut focused runs from")


def cut(source, regex, path):
    """Write the entries of source (a result file, loaded as JSON) whose run matches regex to
    path, with the filter in the context as the benchmark binary records it."""
    pattern = re.compile(regex)
    context = dict(source["context"], benchmark_filter=regex)
    entries = [e for e in source["benchmarks"]
               if pattern.search(e.get("run_name") or e["name"])]
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"context": context, "benchmarks": entries}, handle)
    return path


def load_published():
    return json.loads(read_text(PUBLISHED))


HOLDS = "document.getElementById('holds').textContent"
COMPARISON = """Array.from(document.querySelectorAll('#comparison .question')).map(q => [
  q.dataset.case, q.dataset.op,
  Array.from(q.querySelectorAll('tbody tr')).map(tr => [tr.dataset.library,
    Number(tr.querySelector('[data-seconds]').dataset.seconds),
    tr.querySelector('[data-low]') ? Number(tr.querySelector('[data-low]').dataset.low) : null,
    tr.querySelector('[data-high]') ? Number(tr.querySelector('[data-high]').dataset.high)
                                    : null])])"""
BEST = """Array.from(document.querySelectorAll('#best-formats tbody tr')).map(tr =>
  [tr.dataset.format, tr.dataset.pairing, Number(tr.dataset.total)])"""


@needs_published
@needs_chromium
class FocusedRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        source = load_published()
        cls.links = list(links.load_links().values())
        cls.results, cls.pages = {}, {}
        for count, regex in FILTERS.items():
            path = cut(source, regex, os.path.join(cls.tmp.name, f"run{count}.json"))
            cls.results[count] = results.load(path)
            if len(cls.results[count].runs) != count:
                raise AssertionError(f"{regex} cuts {len(cls.results[count].runs)} benchmarks "
                                     f"out of {PUBLISHED}, not {count}")
            out = os.path.join(cls.tmp.name, f"run{count}")
            report.write(cls.results[count], cls.links, out)
            cls.pages[count] = os.path.join(out, report.PAGE)
        cls.browser = chromium.Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.tmp.cleanup()

    def open(self, count, width=1400):
        self.browser.console_errors.clear()
        self.browser.open(self.pages[count], width, 900)
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [], f"{count}-benchmark run")
        return self.browser.evaluate

    def test_every_page_shows_its_payload_and_what_it_holds(self):
        for count in FILTERS:
            js = self.open(count)
            held = js(HOLDS)
            self.assertIn(f"{count} benchmark", held)
            self.assertIn("focused run", held)
            self.assertEqual(js("document.getElementById('case').value"), "message/100")
            # The throughput chart draws every decoder of the run (a decode is the default).
            decoders = sum(run.name.op == "decode" for run in self.results[count].runs.values())
            bars = js("window.wbCharts['throughput-chart'].data.labels.length")
            self.assertEqual(bars, decoders)
            self.assertNotIn("For ;", js("document.body.innerText"))

    def test_what_a_run_of_decoders_does_not_hold(self):
        for count in (1, 2):
            js = self.open(count)
            held = js(HOLDS)
            self.assertIn("no link model: no encode in the run", held)
            # Every other format of the registry (the codec labels name them) is said absent.
            others = sorted({key.split(".")[1] for key in self.results[count].context
                             if key.startswith("codec.")} - {"json"})
            self.assertIn(f"no {', '.join(others)} benchmarks", held)
            # The calculator gives way: no link controls, no ranking.
            self.assertTrue(js("document.getElementById('link').closest('label').hidden"))
            self.assertTrue(js("document.getElementById('model-part').hidden"))

    def test_two_competitors_side_by_side_with_the_ratio_interval(self):
        js = self.open(2)
        shown = js(COMPARISON)
        self.assertEqual(len(shown), 1)
        case, op, rows = shown[0]
        self.assertEqual((case, op), ("json/message/100", "decode"))
        result = self.results[2]
        runs_by = {run.name.library: run for run in result.runs.values()}
        # A run in rounds answers with its paired time and compares two competitors round
        # by round (a slow window of the machine moves both alike); a run without rounds
        # with the median and the ratio of the two samples.
        fastest = min(runs_by.values(), key=lambda run: run.figure())
        slower = max(runs_by.values(), key=lambda run: run.figure())
        self.assertEqual([row[0] for row in rows],
                         [fastest.name.library, slower.name.library])
        self.assertAlmostEqual(rows[0][1], fastest.figure(), delta=fastest.figure() * 1e-8)
        if paired.in_rounds(result.context):
            _, interval = paired.ratio_of(slower.ratios["cpu"], fastest.ratios["cpu"])
        else:
            _, interval = stats.ratio_interval(slower.cpu, fastest.cpu)
        self.assertAlmostEqual(rows[1][2], interval.low, delta=interval.low * 1e-8)
        self.assertAlmostEqual(rows[1][3], interval.high, delta=interval.high * 1e-8)
        sentence = js("document.querySelector('#comparison .answer-line').textContent")
        self.assertIn(f"{fastest.name.library} is fastest", sentence)
        self.assertIn(f"{interval.low:.2f} – {interval.high:.2f}", sentence)

    def test_one_benchmark_has_no_competitor(self):
        js = self.open(1)
        sentence = js("document.querySelector('#comparison .answer-line').textContent")
        self.assertIn("no competitor in the run", sentence)

    def test_ten_benchmarks_model_the_best_call_of_each_format(self):
        js = self.open(10)
        self.assertFalse(js("document.getElementById('model-part').hidden"))
        pairings = calls.collect(self.results[10]).of_case("message", 100)
        lan = next(link for link in self.links if link.name == "lan")
        want = page_data.best_per_format(calls.rank(pairings, lan))
        got = js(BEST)
        self.assertEqual([row[0] for row in got], [p.format for p, _ in want])
        self.assertEqual({row[0] for row in got}, {"json", "atom"})
        for (fmt, _, total), (p, parts) in zip(got, want):
            self.assertAlmostEqual(total, parts["total"], delta=parts["total"] * 1e-9, msg=fmt)
        # Decoders of two formats compared per question: one table per format's decode.
        questions = {(case, op) for case, op, _ in js(COMPARISON)}
        self.assertIn(("json/message/100", "decode"), questions)
        self.assertIn(("atom/message/100", "decode"), questions)
        self.assertNotIn("no link model", js(HOLDS))


if __name__ == "__main__":
    unittest.main()
