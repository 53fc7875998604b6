"""A racing run on the page: a settled competitor (benchmarks/race.hpp) shows its mark and its
own, wider interval labelled with its coverage, and is never called tied; so is a call with a
settled part, in the page's own model (model.js) too; the compare page calls it "settled".

The run is tools/tests/data/racing-json-message-100.json, a focused run of the json
message/100 payload (`./wirebench bench --filter` as its context says) made with racing on:
simdjson-dom tied with simdjson-ondemand, rapidjson-dom and the nlohmann encoder settled
after 3 rounds.
"""

import os
import tempfile
import unittest

from wbtools.results import holds
from wbtools.transfer import links, calls
from wbtools import report, results
from wbtools.page import chromium, compare_data, compare_page, data as page_data
from tests.test_page_layout import Layout

HERE = os.path.dirname(os.path.abspath(__file__))
RACING = os.path.join(HERE, "data", "racing-json-message-100.json")
CASE = "json/message/100"
DECODER = f"{CASE}/decode/rapidjson-dom/from:reference"
ENCODER = f"{CASE}/encode/nlohmann"
needs_chromium = unittest.skipUnless(
    chromium.find(), f"Chromium is not installed (Debian package '{chromium.PACKAGE}', "
    "which tools/lib.sh installs)")


def load():
    result = results.load(RACING)
    assert {n for n, run in result.runs.items() if run.settled} == {DECODER, ENCODER}, \
        f"{RACING} no longer settles {DECODER} and {ENCODER} alone"
    return result


class RacingData(unittest.TestCase):
    """What data.py carries for the page: a settled row's rounds, why and coverage, once."""

    @classmethod
    def setUpClass(cls):
        cls.result = load()
        cls.links = list(links.load_links().values())
        cls.data = page_data.build(cls.result, cls.links)

    def row(self, op, library):
        return next(t for t in self.data["throughput"]
                    if t["case"] == CASE and t["op"] == op and t["library"] == library)

    def test_settled_rows_point_to_their_rounds_and_why(self):
        against = holds.ratios(self.result)
        for name, op, library in ((DECODER, "decode", "rapidjson-dom"),
                                  (ENCODER, "encode", "nlohmann")):
            row, run = self.row(op, library), self.result.runs[name]
            what, after, why = self.data["settled"][row["settled"]]
            self.assertEqual(what, name[len(CASE) + 1:])
            self.assertEqual((after, why), (run.settled["after"], run.settled["by"]))
            self.assertEqual(row["verdict"], "settled")
            # Its own interval: the min-max of its 3 rounds' ratios, at 75 %, not 95 %.
            self.assertEqual(row["ratio_coverage"], against[name]["confidence"])
            self.assertEqual(row["ratio_coverage"], 0.75)
            self.assertEqual(row["coverage"], 0.75)
            self.assertLess(row["ratio_low"], row["ratio"])
        # Nothing added to the other rows: a whole run has ~5,600 of them.
        tied = self.row("decode", "simdjson-dom")
        self.assertEqual(tied["verdict"], "tied")
        self.assertNotIn("settled", tied)
        self.assertNotIn("ratio_coverage", tied)
        self.assertEqual(len(self.data["settled"]), 2)

    def test_a_call_with_a_settled_part_carries_its_parts_and_coverage(self):
        pairings = calls.collect(self.result).of_case("message", 100)
        rows = self.data["pairings"]["message/100"]
        self.assertEqual(len(rows), len(pairings))
        strings = self.data["strings"]
        marked = 0
        for p, row in zip(pairings, rows):
            self.assertEqual([strings[i] for i in row[:4]],
                             [p.format, p.serializer, p.parser, p.compression])
            if not p.settled:
                self.assertEqual(len(row), 11, p.label)
                continue
            marked += 1
            self.assertEqual(row[11], 0.75, p.label)
            self.assertEqual([f"{CASE}/{self.data['settled'][i][0]}" for i in row[12:]],
                             list(p.settled), p.label)
        # rapidjson-dom's calls and the nlohmann encoder's (2 compressions each).
        self.assertEqual(marked, 8)

    def test_the_method_and_the_rule_are_said(self):
        self.assertIn("racing", self.data["estimator"])
        self.assertIn("never tied", self.data["estimator"])
        keys = [key for key, _ in self.data["context"]]
        # With the run's settings, before the libraries' rows.
        self.assertLess(keys.index("racing"), next(i for i, k in enumerate(keys)
                                                   if k.startswith("library.")))

    def test_compare_calls_it_settled_with_its_coverage(self):
        compared = compare_data.build(self.result, load())
        calls = {row["name"]: row for row in compared["rows"]}
        for name in (DECODER, ENCODER):
            row = calls[name]
            self.assertEqual(row["verdict"], "settled")
            self.assertLess(row["coverage"], 0.95)
            self.assertIn("new: settled after 3 rounds; leader", row["settled"])
        self.assertEqual(calls[f"{CASE}/decode/simdjson-dom/from:reference"]["verdict"],
                         "no significant change")
        self.assertNotIn("settled", calls[f"{CASE}/decode/simdjson-dom/from:reference"])

    def test_report_md_marks_the_settled_competitor(self):
        text = report._competitors(self.result)
        line = next(line for line in text.splitlines() if line.startswith("| rapidjson-dom"))
        self.assertIn("settled after 3 rounds", line)
        self.assertIn("(75 %)", line)
        self.assertNotIn("tied", line)


COMPARISON_ROW = """(() => {{
  const q = Array.from(document.querySelectorAll('#comparison .question'))
    .find(q => q.dataset.op === '{op}');
  const tr = q.querySelector('tr[data-library="{library}"]');
  const mark = tr.querySelector('.settled');
  return {{verdict: tr.querySelector('[data-verdict]').dataset.verdict,
          mark: mark ? mark.textContent : null, why: mark ? mark.title : null,
          cells: Array.from(tr.cells).map(td => td.textContent),
          sentence: q.querySelector('.answer-line').textContent}};
}})()"""


@needs_chromium
class RacingPage(Layout, unittest.TestCase):
    """The page of the racing run, at both widths (Layout), and what it says of a settled
    row."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.result = load()
        cls.links = list(links.load_links().values())
        out = os.path.join(cls.tmp.name, "racing")
        report.write(cls.result, cls.links, out)
        cls.page = os.path.join(out, report.PAGE)
        cls.open_browser()

    def test_a_settled_competitor_is_marked_not_tied(self):
        js = self.open(1400, 900, False)
        self.assertEqual(self.browser.console_errors, [])
        decoder = js(COMPARISON_ROW.format(op="decode", library="rapidjson-dom"))
        self.assertEqual(decoder["verdict"], "settled")
        self.assertEqual(decoder["mark"], "settled after 3 rounds")
        self.assertEqual(decoder["why"], self.result.runs[DECODER].settled["by"])
        self.assertTrue(any(cell.endswith("(75 %)") for cell in decoder["cells"]),
                        decoder["cells"])
        # The sentence calls the contender tied, and the settled competitor settled, with
        # its interval's coverage.
        sentence = decoder["sentence"]
        said = sentence[sentence.index("rapidjson-dom"):]
        self.assertIn("settled after 3 rounds: its 75 % interval", said)
        self.assertNotIn("tied", said)
        self.assertIn("tied", sentence[:sentence.index("rapidjson-dom")])
        encoder = js(COMPARISON_ROW.format(op="encode", library="nlohmann"))
        self.assertEqual((encoder["verdict"], encoder["mark"]),
                         ("settled", "settled after 3 rounds"))
        tied = js(COMPARISON_ROW.format(op="decode", library="simdjson-dom"))
        self.assertEqual((tied["verdict"], tied["mark"]), ("tied", None))
        # The method says what the mark means; the run's settings say the rule.
        self.assertIn("never called tied", js(
            "document.querySelector('#comparison > p.small').textContent"))
        self.assertIn(self.result.context["racing"],
                      js("document.querySelector('#holds .racing').textContent"))
        self.assertEqual(js("document.querySelector('#context tr[data-key=racing] td:last-child')"
                            ".textContent"), self.result.context["racing"])

    def test_the_throughput_table_and_chart_mark_it(self):
        js = self.open(1400, 900, False)
        rows = js("Array.from(document.querySelectorAll('#throughput-table tbody tr')).map(tr =>"
                  " [tr.dataset.library, tr.querySelector('[data-verdict]').dataset.verdict,"
                  "  tr.textContent])")
        verdicts = {library: verdict for library, verdict, _ in rows}
        self.assertEqual(verdicts, {"simdjson-ondemand": "fastest", "simdjson-dom": "tied",
                                    "rapidjson-dom": "settled"})
        text = next(text for library, _, text in rows if library == "rapidjson-dom")
        self.assertIn("settled after 3 rounds", text)
        self.assertIn("min–max of 3 rounds (75 %)", text)
        chart = js("(() => { const c = window.wbCharts['throughput-chart']; return ["
                   "c.data.labels.map(l => [].concat(l).join(' ')),"
                   "c.data.datasets.map(d => d.label)]; })()")
        self.assertIn("json rapidjson-dom (settled)", chart[0])
        self.assertIn("settled by racing: min–max of its rounds (75 %)", chart[1])

    def test_a_call_with_a_settled_part_is_marked_and_never_tied(self):
        js = self.open(1400, 900, False)
        js("document.getElementById('ranking-details').open = true")
        pairings = calls.collect(self.result).of_case("message", 100)
        for link in self.links:
            js(f"(() => {{ const s = document.getElementById('link'); s.value = '{link.name}';"
               " s.dispatchEvent(new Event('change')); })()")
            ranked = calls.rank(pairings, link)
            shown = js("Array.from(document.querySelectorAll('#ranking tbody tr')).map(tr =>"
                       " [tr.dataset.pairing, tr.querySelector('.settled') ?"
                       "  tr.querySelector('.settled').textContent : null])")
            self.assertEqual(len(shown), len(ranked))
            for (label, mark), (p, _) in zip(shown, ranked):
                if p.settled:
                    self.assertRegex(mark or "", r"^settled after 3 rounds: CPU .+ \(75 %\)$",
                                     f"{link.name}: {label}")
                else:
                    self.assertIsNone(mark, f"{link.name}: {label}")
            # The answer's ties are the model's, which leaves every settled call out.
            ties = len(calls.tied_with_fastest(ranked))
            answer = js("document.getElementById('answer').textContent")
            if ties:
                self.assertIn(f"Tied with {ties} other call", answer, link.name)
            else:
                self.assertNotIn("Tied with", answer, link.name)
            self.assertIn("8 with a part racing settled",
                          js("document.getElementById('answer-note').textContent"))
        # model.js itself: a settled call is never tied, whatever the intervals.
        self.assertEqual(js("""(async () => {
          const link = (await wbDom.data()).links[0];
          const p = {wire_bytes: 1000, encode: 1e-5, decode: 1e-5, compress: 0, decompress: 0,
                     cpu_low: 1.9e-5, cpu_high: 2.1e-5};
          const a = wbModel.call(Object.assign({}, p, {settled: []}), link);
          const b = wbModel.call(Object.assign({}, p, {settled: [['decode/x', 3, 'why']]}),
                                 link);
          return [a.settled, b.settled, wbModel.tied(a, a), wbModel.tied(a, b),
                  wbModel.tied(b, a)];
        })()"""), [False, True, True, False, False])

    def test_compare_page_counts_settled_apart(self):
        path = compare_page.write(self.result, load(), os.path.join(self.tmp.name, "cmp.html"))
        self.browser.console_errors.clear()
        self.browser.open(path, 1400, 900)
        self.browser.drain()
        self.assertEqual(self.browser.console_errors, [])
        js = self.browser.evaluate
        summary = js("document.getElementById('summary').textContent")
        self.assertIn("0 slower, 0 faster, 6 no significant change, 2 settled", summary)
        cells = js("Array.from(document.querySelectorAll('td[data-verdict=settled]')).map(td =>"
                   " [td.closest('tr').dataset.name, td.textContent,"
                   "  td.querySelector('.settled').title, td.previousElementSibling"
                   "  .previousElementSibling.textContent])")
        self.assertEqual(sorted(c[0] for c in cells), sorted([DECODER, ENCODER]))
        for name, text, why, interval in cells:
            self.assertEqual(text, "settled")
            self.assertIn(self.result.runs[name].settled["by"], why)
            self.assertRegex(interval, r"\(\d+ %\)$")


if __name__ == "__main__":
    unittest.main()
