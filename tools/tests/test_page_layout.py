"""The report page's layout in headless Chromium at a desktop's 1,400 px and a phone's 390 px,
for the published run and a focused run of two decoders: no console error, no chart label or
legend entry cut, no element past the screen's edge (a table scrolls inside its own box), no
sideways scroll on the phone; and the published page leads with the fastest call of each
format, keeps each ranked row short, orders and charts memory, and shows the machine's state
as text.
"""

import os
import tempfile
import unittest

from wbtools.transfer import links
from wbtools import report, results
from wbtools.page import chromium
from tests.test_page import WAIT_APPENDIX
from tests.test_page_runs import FILTERS, PUBLISHED, cut, load_published, needs_chromium, \
    needs_published

VIEWS = ((1400, 900, False), (390, 844, True))

# What a chart draws past its box: a category label left of the canvas, a legend entry
# outside the legend, a title wider than the canvas.
CHART_CUT = """(() => {
  const out = [];
  for (const [id, c] of Object.entries(window.wbCharts)) {
    if (!c.canvas.getBoundingClientRect().width) continue;
    const ctx = c.ctx;
    for (const s of Object.values(c.scales)) {
      if (s.axis !== 'y' || s.type !== 'category' || !s.options.display) continue;
      ctx.save();
      ctx.font = Chart.helpers.toFont(s.options.ticks.font).string;
      const gap = (s.options.grid.drawTicks ? s.options.grid.tickLength : 0) +
                  s.options.ticks.padding;
      for (const label of s.getLabels()) {
        for (const line of [].concat(label)) {
          const left = s.right - gap - ctx.measureText(line).width;
          if (left < -0.5) out.push(`${id}: label "${line}" starts at ${left.toFixed(0)} px`);
        }
      }
      ctx.restore();
    }
    const legend = c.legend;
    if (legend && legend.options.display) {
      (legend.legendHitBoxes || []).forEach((box, i) => {
        if (box.left < -0.5 || box.left + box.width > c.width + 0.5 || box.top < -0.5 ||
            box.top + box.height > legend.bottom + 0.5)
          out.push(`${id}: legend entry ${i} outside its legend`);
      });
    }
    const title = c.options.plugins && c.options.plugins.title;
    if (title && title.display) {
      ctx.save();
      ctx.font = Chart.helpers.toFont(title.font).string;
      for (const line of [].concat(title.text)) {
        if (ctx.measureText(line).width > c.width) out.push(`${id}: title "${line}" is cut`);
      }
      ctx.restore();
    }
  }
  return out;
})()"""


# Elements past the viewport's edges, but for what a table's scroll box holds (it scrolls
# sideways on its own) and what is not shown.
HTML_CUT = """(() => {
  const out = [], width = document.documentElement.clientWidth;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => node.classList.contains('scroll') || node.tagName === 'CANVAS' ?
      NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.left < -0.5 || r.right > width + 0.5) {
      out.push(`${node.tagName.toLowerCase()}${node.id ? '#' + node.id : ''}: ` +
               `${r.left.toFixed(0)} to ${r.right.toFixed(0)} px of ${width}`);
    }
  }
  return out;
})()"""


class Layout:
    """The checks for one page at both widths; a subclass gives the page."""

    page = None

    @classmethod
    def open_browser(cls):
        # Opening every section lays out the published run's appendix, 3.9 MB of tables:
        # 10-14 s on a busy 2-core machine, which the default 30 s per call did not always
        # cover while other tests ran.
        cls.browser = chromium.Browser(timeout=120).__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.tmp.cleanup()

    def open(self, width, height, mobile):
        self.browser.console_errors.clear()
        self.browser.open(self.page, width, height, mobile)
        self.browser.drain()
        return self.browser.evaluate

    def test_nothing_cut_and_no_sideways_scroll(self):
        for width, height, mobile in VIEWS:
            with self.subTest(width=width):
                js = self.open(width, height, mobile)
                self.assertEqual(self.browser.console_errors, [])
                # Every section shown (the ranking's details opened) and every operation of
                # the throughput and memory charts drawn once: each can cut a label.
                js("document.querySelectorAll('details').forEach(d => d.open = true)")
                self.assertTrue(js(WAIT_APPENDIX))  # built on its first opening
                for select in ("op", "memory-op"):
                    for value in js(f"Array.from(document.getElementById('{select}').options)"
                                    ".map(o => o.value)"):
                        js(f"(() => {{ const s = document.getElementById('{select}'); "
                           f"s.value = '{value}'; s.dispatchEvent(new Event('change')); }})()")
                        self.assertEqual(js(CHART_CUT), [], f"{select} = {value}")
                self.assertEqual(js(HTML_CUT), [])
                self.assertEqual(js("window.innerWidth"), width)
                self.assertLessEqual(js("document.documentElement.scrollWidth"), width)
                self.browser.drain()
                self.assertEqual(self.browser.console_errors, [])


@needs_published
@needs_chromium
class PublishedRun(Layout, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.result = results.load(PUBLISHED)
        report.write(cls.result, list(links.load_links().values()), cls.tmp.name)
        cls.page = os.path.join(cls.tmp.name, report.PAGE)
        cls.open_browser()

    def test_first_view_leads_with_the_fastest_call_of_each_format(self):
        js = self.open(1400, 900, False)
        case = js("document.getElementById('case').value")
        formats = sorted({run.name.format for run in self.result.select(op="encode")
                          if f"{run.name.dataset}/{run.name.rows}" == case})
        shown = js("Array.from(document.querySelectorAll('#best-formats tbody tr'))"
                   ".map(tr => tr.dataset.format)")
        self.assertEqual(sorted(shown), formats)
        self.assertGreaterEqual(len(formats), 4)
        # The table and its chart in the first screen, every format a bar of the chart.
        top = js("document.getElementById('best-formats').getBoundingClientRect().bottom")
        self.assertLess(top, 900)
        self.assertEqual(js("window.wbCharts['split-chart'].data.labels.length"), len(formats))

    def test_ranked_rows_are_short_and_fit_the_width(self):
        js = self.open(1400, 900, False)
        js("document.getElementById('ranking-details').open = true")
        rows = js("Array.from(document.querySelectorAll('#ranking tbody tr'))"
                  ".map(tr => tr.getBoundingClientRect().height)")
        line = js("parseFloat(getComputedStyle(document.querySelector('#ranking td'))"
                  ".lineHeight)")
        self.assertEqual(len(rows), 20)
        self.assertLessEqual(max(rows), 2 * line + 8, "a ranked row takes more than 2 lines")
        for box in ("ranking", "best-formats", "glance"):
            fits = js(f"(() => {{ const s = document.querySelector('#{box} .scroll'); "
                      "return s.scrollWidth <= s.clientWidth; })()")
            self.assertTrue(fits, f"#{box} scrolls sideways at 1,400 px")
        # The full label is one tap away, and on hover.
        tag = js("(() => { const d = document.querySelector('#ranking details.tag'); "
                 "return [d.querySelector('summary').textContent, "
                 "d.querySelector('summary').title]; })()")
        self.assertLess(len(tag[0]), 60)
        self.assertIn("writer:", tag[1])

    def test_memory_ordered_and_charted(self):
        js = self.open(1400, 900, False)
        totals = js("Array.from(document.querySelectorAll('#memory-table tbody tr'))"
                    ".map(tr => Number(tr.cells[3].textContent.replace(/,/g, '')))")
        self.assertGreater(len(totals), 10)
        self.assertEqual(totals, sorted(totals))
        bars = js("window.wbCharts['memory-chart'].data.labels.length")
        self.assertEqual(bars, len(totals))
        self.assertIn("allocates least", js("document.getElementById('memory-summary')"
                                           ".textContent"))

    def test_machine_state_reads_as_text(self):
        js = self.open(1400, 900, False)
        text = js("document.getElementById('context').textContent")
        self.assertNotIn("{'", text)
        self.assertNotIn("{\"", text)
        if "machine_state" in self.result.context:
            self.assertIn("machine before the run", text)
            self.assertIn("% busy", text)


@needs_published
@needs_chromium
class FocusedRun(Layout, unittest.TestCase):
    """Two decoders: no link model, the competitors first."""

    count = 2

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        path = cut(load_published(), FILTERS[cls.count],
                   os.path.join(cls.tmp.name, "focused.json"))
        out = os.path.join(cls.tmp.name, "focused")
        report.write(results.load(path), list(links.load_links().values()), out)
        cls.page = os.path.join(out, report.PAGE)
        cls.open_browser()


class FocusedModelRun(FocusedRun):
    """Two formats with an encoder each: a link model, then the competitors."""

    count = 10


if __name__ == "__main__":
    unittest.main()
