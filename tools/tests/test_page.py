"""The report page in headless Chromium: no console error, the ranking first, a link choice that
re-ranks, figures equal to the result file's, distinct colours, and the compare page.

The page is built from tools/tests/data/published-science-1000.json (the json and atom
science/1000 benchmarks of the published run) and synthetic.json, so no benchmark runs.
"""

import base64
import dataclasses
import gzip
import json
import os
import tempfile
import unittest

from wbtools.transfer import links, calls
from wbtools import report, results, units
from wbtools.report import report_tables
from wbtools.page import build, chromium, compare_page, markdown, screenshots

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "data", "published-science-1000.json")
SYNTHETIC = os.path.join(HERE, "data", "synthetic.json")
WIRE = os.path.join(HERE, "data", "wire-sample.json")
SCENARIO = os.path.join(HERE, "data", "scenario-poc-sample.json")
# The page tests run in headless Chromium; without it they skip and say why.
needs_chromium = unittest.skipUnless(
    chromium.find(), f"Chromium is not installed (Debian package '{chromium.PACKAGE}', "
    "which tools/lib.sh installs)")

# Resolves when the "All tables" appendix, opened, is built (it is unpacked on first open).
WAIT_APPENDIX = """new Promise((resolve) => { const wait = () => window.wbAppendixReady ?
  resolve(true) : setTimeout(wait, 20); wait(); })"""
RANKING = """Array.from(document.querySelectorAll('#ranking tbody tr')).map(tr =>
  [tr.dataset.pairing, Number(tr.dataset.total)])"""


def _label(p):
    compression = "" if p.compression == "none" else f" + {p.compression}"
    return f"{p.format} {p.serializer} \u2192 {p.parser or '(no decoder)'}{compression}"


@needs_chromium
class Page(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.links = list(links.load_links().values())
        cls.result = results.load(REAL)
        report.write(cls.result, cls.links, cls.tmp.name)
        cls.page = os.path.join(cls.tmp.name, report.PAGE)
        cls.browser = chromium.Browser().__enter__()
        cls.browser.open(cls.page, 1366, 900)

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.tmp.cleanup()

    def js(self, expression):
        return self.browser.evaluate(expression)

    def python_ranking(self, link_name):
        link = next(link for link in self.links if link.name == link_name)
        pairings = calls.collect(self.result).of_case("science", 1000)
        return [(_label(p), parts["total"]) for p, parts in calls.rank(pairings, link)]

    def test_0_no_console_error(self):
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])

    def test_self_contained(self):
        with open(self.page, encoding="utf-8") as handle:
            text = handle.read()
        # No file or address the page would fetch: scripts and styles are inline.
        self.assertNotIn("<script src", text)
        self.assertNotIn("<link rel=\"stylesheet\"", text)
        self.assertIn("Chart.js v3", text)

    def test_data_travels_gzipped_and_unpacks_to_the_page_data(self):
        with open(self.page, encoding="utf-8") as handle:
            text = handle.read()
        start = text.index('id="wb-data">') + len('id="wb-data">')
        packed = text[start:text.index("</script>", start)]
        data = json.loads(gzip.decompress(base64.b64decode(packed)))
        self.assertEqual(data["default_case"], "science/1000")
        self.assertEqual(len(data["pairings"]["science/1000"]),
                         len(calls.collect(self.result).of_case("science", 1000)))
        # What the page unpacked is that object.
        self.assertEqual(json.loads(self.js("wbDom.data().then((d) => JSON.stringify(d.links))")),
                         data["links"])
        # The same data makes the same bytes: no timestamp in the gzip.
        self.assertEqual(build.gzip_json(data), build.gzip_json(json.loads(json.dumps(data))))

    def test_first_view_ranks_the_default_case(self):
        self.assertEqual(self.js("document.getElementById('case').value"), "science/1000")
        self.assertEqual(self.js("document.getElementById('link').value"), "lan")
        shown = self.js(RANKING)
        self.assertEqual(len(shown), 20)
        expected = self.python_ranking("lan")
        self.assertEqual([name for name, _ in shown], [name for name, _ in expected[:20]])
        for (_, got), (_, want) in zip(shown, expected):
            self.assertAlmostEqual(got, want, delta=want * 1e-9)
        # The ranked rows are in the first screen: the answer opens the page.
        top = self.js("document.querySelector('#answer').getBoundingClientRect().top")
        self.assertLess(top, 900)
        self.assertIn(expected[0][0], self.js("document.getElementById('best-pairing').textContent"))

    def test_choosing_another_link_reranks(self):
        before = self.js(RANKING)
        self.js("(() => { const s = document.getElementById('link'); s.value = 'mobile'; "
                "s.dispatchEvent(new Event('change')); })()")
        after = self.js(RANKING)
        try:
            self.assertNotEqual(before[0][0], after[0][0])
            expected = self.python_ranking("mobile")
            self.assertEqual([name for name, _ in after], [name for name, _ in expected[:20]])
            # Own bandwidth and RTT: 2 Mbit/s, 300 ms on a warm connection.
            self.js("(() => { const set = (id, v) => { const e = document.getElementById(id); "
                    "e.value = v; e.dispatchEvent(new Event('change')); }; "
                    "set('connection', 'warm'); set('bandwidth', '2'); set('rtt', '300'); })()")
            custom = dataclasses.replace(next(link for link in self.links if link.name == "mobile"),
                                         bandwidth_bps=2e6, rtt_s=0.3, connection="warm")
            pairings = calls.collect(self.result).of_case("science", 1000)
            want = calls.rank(pairings, custom)[0]
            got = self.js(RANKING)[0]
            self.assertEqual(got[0], _label(want[0]))
            self.assertAlmostEqual(got[1], want[1]["total"], delta=want[1]["total"] * 1e-9)
        finally:
            self.js("(() => { const s = document.getElementById('link'); s.value = 'lan'; "
                    "s.dispatchEvent(new Event('change')); })()")
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])

    def test_choosing_a_stack_reprices_every_call(self):
        # mobile over h2+tls1.3: the page ranks as links.with_stack prices it.
        set_value = ("(() => { const set = (id, v) => { const e = document.getElementById(id); "
                     "e.value = v; e.dispatchEvent(new Event('change')); }; "
                     "set('link', 'mobile'); set('stack', '%s'); })()")
        try:
            self.js(set_value % "h2+tls1.3")
            mobile = next(link for link in self.links if link.name == "mobile")
            pairings = calls.collect(self.result).of_case("science", 1000)
            want = calls.rank(pairings, links.with_stack(mobile, "h2+tls1.3"))[0]
            got = self.js(RANKING)[0]
            self.assertEqual(got[0], _label(want[0]))
            self.assertAlmostEqual(got[1], want[1]["total"], delta=want[1]["total"] * 1e-9)
        finally:
            self.js(set_value.replace("mobile", "lan") % "")
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])

    def test_figures_equal_the_result_file(self):
        # A throughput cell: the median time of a benchmark, as text and as a number.
        run = self.result.get("json/science/1000/decode/simdjson-dom/from:reference")
        cell = self.js("(() => { const c = document.querySelector('[data-name=\"json/science/"
                       "1000/decode/simdjson-dom\"]'); return [c.textContent, "
                       "Number(c.dataset.seconds)]; })()")
        self.assertEqual(cell[0], units.seconds(run.median()))
        self.assertAlmostEqual(cell[1], run.median(), delta=run.median() * 1e-8)
        # The published-size table: the reference writer's json/science/1000 bytes.
        wire = self.result.get("json/science/1000/encode/reference").counter("wire_bytes")
        shown = self.js("Array.from(document.querySelectorAll('#published [data-bytes]'))"
                        ".map(c => [c.textContent, Number(c.dataset.bytes)])")
        self.assertIn([units.count(wire), wire], shown)
        # The glance table's lan row: the fastest call's total, formatted as units.seconds.
        total = self.python_ranking("lan")[0][1]
        lan = self.js("Array.from(document.querySelectorAll('#glance tr[data-link=\"lan\"] "
                      "td')).map(td => td.textContent)")
        self.assertIn(units.seconds(total), lan)

    def test_every_series_distinguishable(self):
        styles = self.js("""Object.entries(window.wbCharts).map(([id, chart]) => [id,
            chart.data.datasets.map(d => [String(d.borderColor || d.backgroundColor),
                                          String(d.pointStyle || '')])])""")
        ids = {chart_id for chart_id, _ in styles}
        self.assertTrue({"split-chart", "bandwidth-chart", "throughput-chart", "parse-chart",
                         "sizes-chart"} <= ids, ids)
        for chart_id, series in styles:
            colours = [colour for colour, _ in series]
            self.assertEqual(len(colours), len(set(colours)), chart_id)
        bandwidth = dict(styles)["bandwidth-chart"]
        self.assertEqual(len({marker for _, marker in bandwidth}), min(10, len(bandwidth)))
        # Past the palette's twenty colours and ten markers the page still draws each
        # series in its own colour (the published run's chart has 16 series).
        colours = self.js("Array.from({length: 40}, (_, i) => window.wbColor(i))")
        self.assertEqual(len(set(colours)), 40)

    def test_bandwidth_chart_draws_each_formats_fastest_call_and_the_rest_on_request(self):
        lines = ("window.wbCharts['bandwidth-chart'].data.datasets.map(d => d.label)")
        choose = ("(() => { const s = document.getElementById('bandwidth-lines'); "
                  "s.value = '%s'; s.dispatchEvent(new Event('change')); })()")
        ranked = self.python_ranking("lan")

        def first_of(key):
            seen = {}
            for label, _ in ranked:
                seen.setdefault(key(label), label)
            return sorted(seen.values())

        # The format is a label's first word; its compression follows " + ".
        self.assertEqual(sorted(self.js(lines)), first_of(lambda label: label.split()[0]))
        self.assertEqual(len(self.js(lines)), 2)  # json and atom
        try:
            self.js(choose % "compression")
            by_compression = first_of(lambda label: (label.split()[0], label.partition(" + ")[2]))
            self.assertEqual(sorted(self.js(lines)), by_compression)
            self.assertGreater(len(by_compression), 2)
        finally:
            self.js(choose % "format")
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])

    def test_appendix_built_when_opened(self):
        # Closed, it is not built; opened, it holds every table REPORT.md once held.
        self.assertEqual(self.js("document.getElementById('appendix').innerHTML"), "")
        self.js("document.getElementById('appendix').closest('details').open = true")
        self.assertTrue(self.js(WAIT_APPENDIX))
        html = self.js("document.getElementById('appendix').innerHTML")
        want = markdown.to_html(report_tables.tables(self.result, calls.collect(self.result),
                                                     self.links))
        self.assertEqual(self.js("document.getElementById('appendix').childElementCount"),
                         self.js("(() => { const d = document.createElement('div'); "
                                 f"d.innerHTML = {json.dumps(want)}; "
                                 "return d.childElementCount; })()"))
        self.assertIn("Throughput per library", html)
        run = self.result.get("json/science/1000/decode/simdjson-dom/from:reference")
        self.assertIn(units.seconds(run.median()), html)
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])

    def test_axes_labelled_and_log_scales_marked(self):
        axes = self.js("""Object.entries(window.wbCharts).map(([id, chart]) =>
            [id, Object.values(chart.options.scales).filter(s => s.type !== 'category')
                .map(s => [s.type, s.title && s.title.display ? s.title.text : ''])])""")
        for chart_id, scales in axes:
            for kind, title in scales:
                self.assertTrue(title, f"{chart_id}: an axis without a title")
                if kind == "logarithmic":
                    self.assertIn("log scale", title, chart_id)

    def test_wire_section_hidden_without_a_wire_result(self):
        self.assertTrue(self.js("document.getElementById('wire-section').hidden"))
        self.assertTrue(self.js("document.getElementById('scenarios-section').hidden"))

    def test_screenshots(self):
        paths = screenshots.take(self.page, self.tmp.name, self.browser)
        for path in paths:
            with open(path, "rb") as handle:
                self.assertEqual(handle.read(8), b"\x89PNG\r\n\x1a\n")
        self.browser.open(self.page, 1366, 900)


@needs_chromium
class WireSection(unittest.TestCase):
    """A page with a measured-wire file (a few cases of a real `wire --matrix` run)."""

    def test_cases_and_ratios_as_the_file_has_them(self):
        with open(WIRE, encoding="utf-8") as handle:
            wire = json.load(handle)
        with tempfile.TemporaryDirectory() as tmp:
            report.write(results.load(SYNTHETIC), list(links.load_links().values()), tmp,
                         wire_result=wire)
            with chromium.Browser() as browser:
                browser.open(os.path.join(tmp, report.PAGE), 1366, 900)
                hidden = browser.evaluate("document.getElementById('wire-section').hidden")
                rows = browser.evaluate("Array.from(document.querySelectorAll('#wire tbody tr'))"
                                        ".map(tr => Array.from(tr.cells).map(c => c.textContent))")
                browser.drain()
                errors = browser.console_errors
        self.assertEqual(errors, [])
        self.assertFalse(hidden)
        self.assertEqual(len(rows), len(wire["cases"]))
        for row, case in zip(rows, wire["cases"]):
            self.assertEqual(row[:3], [case["profile"], case["congestion"], case["payload"]])
            self.assertEqual(row[8], f"{case['model']['after']['ratio']:.3f}x")


@needs_chromium
class ScenarioSection(unittest.TestCase):
    """A page with a scenario file (a real poc run's result and check lines, a few calls)
    and a failed run of another scenario."""

    TABLES = """Array.from(document.querySelectorAll('.scenario[data-scenario="poc"] table'))
        .map(t => [Array.from(t.querySelectorAll('th')).map(th => th.dataset.key || ''),
                   Array.from(t.querySelectorAll('tbody tr')).map(tr => Array.from(tr.cells)
                     .map(c => [c.textContent, c.dataset.value === undefined ? null :
                                               Number(c.dataset.value)]))])"""

    def test_results_beside_the_published_figures_as_the_file_has_them(self):
        with open(SCENARIO, encoding="utf-8") as handle:
            poc = json.load(handle)
        failed = {"type": "wirebench-scenario", "scenario": "wcf", "context": {},
                  "checks": [], "results": [], "requests": [], "other": [],
                  "exit_status": 1, "stderr_tail": ["wirebench_wire: self-check failed"]}
        with tempfile.TemporaryDirectory() as tmp:
            report.write(results.load(SYNTHETIC), list(links.load_links().values()), tmp,
                         scenario_files=[{**poc, "file": "poc.json"},
                                         {**failed, "file": "wcf.json"}])
            with chromium.Browser() as browser:
                browser.open(os.path.join(tmp, report.PAGE), 1366, 900)
                hidden = browser.evaluate("document.getElementById('scenarios-section').hidden")
                tables = browser.evaluate(self.TABLES)
                failure = browser.evaluate("document.querySelector('.scenario[data-scenario="
                                           "\"wcf\"] .scenario-failed').textContent")
                browser.drain()
                errors = browser.console_errors
        self.assertEqual(errors, [])
        self.assertFalse(hidden)
        self.assertIn("exit status 1", failure)
        self.assertIn("self-check failed", failure)
        check, *series = tables
        result = poc["checks"][0]["result"]
        self.assertEqual(check[1][0][1][0], units.seconds(result["rtt_median_ms"] / 1000))
        shown = [dict(zip(keys, row)) for keys, rows in series if keys[:1] == ["series"]
                 for row in rows]
        self.assertEqual(len(shown), len(poc["results"]))
        for line, row in zip(poc["results"], shown):
            self.assertEqual(row["series"][0], line["series"])
            for key, value in line.items():
                if key in ("type", "scenario", "series"):
                    continue
                text, number = row[key]
                if isinstance(value, (int, float)):
                    self.assertAlmostEqual(number, value, delta=abs(value) * 1e-9, msg=key)
                if key.endswith("_ms"):
                    self.assertEqual(text, units.seconds(value / 1000), key)
                elif key == "seconds" or key.endswith(("_s", "_seconds")):
                    self.assertEqual(text, units.seconds(value), key)
                elif isinstance(value, int):
                    self.assertEqual(text, units.count(value), key)
                elif value is None:
                    self.assertEqual(text, "-", key)
                elif isinstance(value, str):
                    self.assertEqual(text, value, key)
            # Ours, then the published figure beside it.
            keys = list(row)
            self.assertEqual(keys.index("published_body_bytes"), keys.index("body_bytes") + 1)


@needs_chromium
class ComparePage(unittest.TestCase):
    def test_differences_first_and_a_significant_change(self):
        with open(SYNTHETIC, encoding="utf-8") as handle:
            data = json.load(handle)
        old_data = json.loads(json.dumps(data))
        old_data["context"]["cpu_model"] = "Intel(R) Xeon(R) (family 6, model 143, stepping 8)"
        data["context"]["cpu_model"] = "AMD EPYC (family 26, model 2, stepping 1)"
        for entry in data["benchmarks"]:
            if entry["name"] == "json/airport/101/encode/rapidjson" and \
                    entry.get("run_type") == "iteration":
                entry["cpu_time"] *= 2
        with tempfile.TemporaryDirectory() as tmp:
            old_path, new_path = os.path.join(tmp, "old.json"), os.path.join(tmp, "new.json")
            for path, content in ((old_path, old_data), (new_path, data)):
                with open(path, "w", encoding="utf-8") as handle:
                    json.dump(content, handle)
            page = compare_page.write(results.load(old_path), results.load(new_path),
                                      os.path.join(tmp, "compare.html"))
            with chromium.Browser() as browser:
                browser.open(page, 1280, 900)
                first = browser.evaluate("document.querySelector('main section').id")
                differences = browser.evaluate("document.getElementById('differences')"
                                               ".textContent")
                row = browser.evaluate("Array.from(document.querySelectorAll('tr[data-name="
                                       "\"json/airport/101/encode/rapidjson\"] td')).map(td => "
                                       "td.textContent)")
                browser.drain()
                errors = browser.console_errors
        self.assertEqual(errors, [])
        self.assertEqual(first, "differences-section")
        self.assertIn("cpu_model", differences)
        self.assertIn("different machines", differences)
        # 3 repetitions against 3: the 95 % interval needs more, so the change is not judged;
        # the ratio itself is 2 (every pairwise ratio of 60, 60, 72 / 30, 30, 36 has median 2).
        self.assertEqual(row[4], "2.000x")
        self.assertEqual(row[7], "too few repetitions")


if __name__ == "__main__":
    unittest.main()
