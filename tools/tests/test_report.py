"""The report's tables, REPORT.md and compare's summary from the synthetic fixture: what is
there, what is skipped."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest
from xml.etree import ElementTree

from wbtools import compare, report, results
from wbtools.transfer import links, calls
from wbtools.results import noise

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "data", "synthetic.json")


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        result = results.load(FIXTURE)
        profiles = list(links.load_links().values())
        cls.text = report.tables(result, calls.collect(result), profiles)
        path = report.write(result, profiles, cls.tmp.name)
        with open(path, encoding="utf-8") as handle:
            cls.summary = handle.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_published_sizes_only_for_present_payloads(self):
        self.assertIn("| json/airport/101 | 16,000 | 15,862 |", self.text)
        self.assertIn("ok (+0.9 %)", self.text)  # 16,000 / 15,862 - 1
        self.assertIn("Not in this result file: atom/message/100, json/message/100.", self.text)

    def test_compressed_sizes_and_matrix(self):
        self.assertIn("4,000 (25 %)", self.text)  # gzip_bytes / wire_bytes
        # simdjson-ondemand read only rapidjson's output: the reference column is empty.
        self.assertIn("| simdjson-ondemand | on-demand, in situ, validates UTF-8, exact doubles | "
                      "400.0 MB/s (40 us) | - |", self.text)

    def test_spread_and_memcpy_fraction(self):
        # rapidjson encode: 30, 30, 36 us; 16,000 B / 30 us = 533.3 MB/s; memcpy 16,000 B/us.
        self.assertIn("| json/airport/101 | encode | rapidjson | streaming writer (RapidJSON Writer) | "
                      "30 us | 533.3 | 30 us - 36 us | 10.8 % | 0 | 3.33 % |", self.text)

    def test_parse_only_ratio_and_noise(self):
        # rapidjson-dom parse-only 20, 20, 26 us (median 20, CV 3.46 / 22 = 15.7 %); its decodes
        # have medians 52 and 52: 52 / 20 = 2.60x, binding share 1 - 20 / 52 = 61.5 %.
        self.assertIn("| json/airport/101 | rapidjson-dom | DOM, copying, validates UTF-8, exact "
                      "doubles | 20 us | 52 us | 61.5 % | 2.60x | 15.7 % |", self.text)
        # simdjson-dom has no decode in the file: no ratio; and no labels in the context: "-".
        self.assertIn("| json/airport/101 | simdjson-dom | - | 10 us | - | - | - | - |", self.text)

    def test_codec_labels_beside_the_rows(self):
        # The context's codec.* entries: a section listing them, and a column wherever a row
        # names a codec ("-" for a codec without an entry or an operation that names none).
        self.assertIn("## What each codec does", self.text)
        self.assertIn("| soap | decode | pugixml | DOM, in situ, no UTF-8 check |", self.text)
        self.assertIn("| soap/airport/101 | decode | pugixml <- reference | DOM, in situ, no UTF-8 "
                      "check | 60 us |", self.text)
        self.assertIn("| json/airport/101 | compress | gzip | - | 100 us |", self.text)
        self.assertIn("- serializer `reference`: streaming writer (hand-written)", self.text)
        self.assertIn("| `json/airport/101/encode/rapidjson` | 10.8 % | streaming writer "
                      "(RapidJSON Writer) |", self.text)

    def test_result_without_labels_has_no_labels_column(self):
        # A result file written before the codec.* context entries existed.
        with open(FIXTURE, encoding="utf-8") as handle:
            data = json.load(handle)
        data["context"] = {key: value for key, value in data["context"].items()
                           if not key.startswith("codec.")}
        with tempfile.TemporaryDirectory() as tmp:
            old = os.path.join(tmp, "old.json")
            with open(old, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            result = results.load(old)
            profiles = list(links.load_links().values())
            text = report.tables(result, calls.collect(result), profiles)
        self.assertNotIn("what it does", text)
        self.assertNotIn("## What each codec does", text)
        self.assertIn("| json/airport/101 | encode | rapidjson | 30 us | 533.3 | 30 us - 36 us | "
                      "10.8 % | 0 | 3.33 % |", text)
        self.assertIn("| simdjson-ondemand | 400.0 MB/s (40 us) | - |", text)

    def test_failed_benchmarks_listed(self):
        self.assertIn("round trip mismatch at row 3", self.text)

    def test_relay_fit_applied_to_our_sizes(self):
        # 9 * 0.693122 + 9 * 160,000 * 8 / 1,548,288 = 6.238 + 7.440 = 13.7 s
        self.assertIn("| json | 160,000 (reference) | 166,912 | 13.7 s | 14 s |", self.text)
        # 9 * 0.693122 + 9 * 1,000,000 * 8 / 1,548,288 = 6.238 + 46.503 = 52.7 s
        self.assertIn("| atom | 1,000,000 (reference) | 1,048,576 | 52.7 s | 55 s |", self.text)

    def test_noise_section(self):
        # rapidjson-dom's parse-only (20, 20, 26 us: CV 15.7 %) and rapidjson's encode are the
        # fixture's two cases above 5 %.
        self.assertIn("## Noise", self.text)
        self.assertIn("2 of 16 benchmarks have a coefficient of variation", self.text)
        self.assertIn("| json | parse-only | 1 of 2 |", self.text)
        self.assertIn("| rapidjson-dom | 1 of 3 | 33 % |", self.text)
        self.assertIn("| `json/airport/101/parse-only/rapidjson-dom` | 15.7 % |", self.text)
        self.assertLess(self.text.index("## Noise"), self.text.index("## Sizes"))

    def test_noise_section_empty_below_threshold(self):
        self.assertEqual(noise.section(results.load(FIXTURE), threshold=0.5), "")

    def test_summary_is_short_and_links_the_page(self):
        self.assertLessEqual(len(self.summary.splitlines()), 150)
        self.assertIn("(report.html)", self.summary)
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, "report.html")) > 100_000)
        # The headline per dataset: airport/101's fastest call on wan (gzip: 4,000 B).
        self.assertIn("| `wan` | json rapidjson → simdjson-ondemand, gzip |", self.summary)
        self.assertIn("- Noise: 2 of 16 benchmarks have a CV above 5%", self.summary)

    def test_charts_written(self):
        name = "time-split-airport-101.svg"
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, name)) > 1000, name)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "bandwidth-science-1000.svg")))
        # Well-formed SVG (labels hold "->", escaped) with what each chart draws.
        svg = "{http://www.w3.org/2000/svg}"
        split = ElementTree.parse(os.path.join(self.tmp.name, name))
        self.assertTrue(any(rect.find(svg + "title") is not None and "->" in
                            rect.find(svg + "title").text for rect in split.iter(svg + "rect")))
        # One bar per link and format, the format's fastest call, whatever its compression.
        result = results.load(FIXTURE)
        profiles = list(links.load_links().values())
        case = calls.collect(result).of_case("airport", 101)
        want = [f"{p.format} {p.serializer}->{p.parser}" +
                ("" if p.compression == "none" else f" +{p.compression}")
                for link in profiles for p, _ in calls.fastest_per_format(case, link)]
        bars = [text.text for text in split.iter(svg + "text") if "->" in (text.text or "")]
        self.assertEqual(bars, want)
        self.assertGreater(len({p.compression for p in case}), 1)


class CompareSummary(unittest.TestCase):
    def test_regression_found(self):
        old = results.load(FIXTURE)
        new = results.load(FIXTURE)
        run = new.runs["json/airport/101/encode/rapidjson"]
        run.cpu = [t * 2 for t in run.cpu]
        text = compare.summary(old, new)
        self.assertIn("| json | regression | `json/airport/101/encode/rapidjson` | 30 us | 60 us | "
                      "2.000x (+100.0 %) |", text)

    def test_utest_table(self):
        old = results.load(FIXTURE)
        new = results.load(FIXTURE)
        run = new.runs["json/airport/101/encode/rapidjson"]
        run.cpu = [t * 2 for t in run.cpu]  # 30, 30, 36 us -> 60, 60, 72 us
        text = compare.utest_table(old, new)
        # Ties (30, 30 and 60, 60): normal approximation; scipy 1.10.1's mannwhitneyu gives
        # p = 0.07219819770165753 for these samples. real_time unchanged: p = 1.
        # 3 against 3 reaches no 95 % interval: not called slower, however large the change.
        self.assertIn("| `json/airport/101/encode/rapidjson` | 3/3 | 30 us | 60 us | 2.000x | "
                      "0.0722 | too few repetitions |", text)
        self.assertIn("only 3 repetitions", text)

    def test_verdict_calls_a_ten_percent_slowdown(self):
        old = [1.00, 1.01, 0.99, 1.02, 1.00, 0.98]
        slower = [t * 1.10 for t in [1.01, 0.99, 1.00, 1.02, 0.98, 1.00]]
        v = compare.verdict(old, slower)
        self.assertEqual(v.call, "slower")
        self.assertAlmostEqual(v.ratio, 1.10, delta=0.02)
        self.assertLess(v.interval.low, 1.10)
        self.assertGreater(v.interval.low, 1.0)
        self.assertLess(v.p, 0.01)
        self.assertEqual(compare.verdict(slower, old).call, "faster")

    def test_verdict_leaves_noise_and_small_changes_alone(self):
        old = [1.00, 1.01, 0.99, 1.02, 1.00, 0.98]
        # Interleaved samples of one distribution: p large.
        self.assertEqual(compare.verdict(old, [0.995, 1.015, 1.005, 0.985, 1.0, 1.01]).call,
                         "same")
        # 1 % slower everywhere: significant, but under the minimum change.
        self.assertEqual(compare.verdict(old, [t * 1.01 + 0.03 for t in old]).call, "slower")
        self.assertEqual(compare.verdict(old, [t * 1.01 for t in old]).call, "same")

    @staticmethod
    def with_probe(result, times):
        """result with a calibration probe timed at times (a copy of one of its runs)."""
        run = copy.deepcopy(result.runs["json/airport/101/encode/rapidjson"])
        run.cpu = list(times)
        result.runs["calibration/0-999/compute"] = run
        return result

    def test_machine_speed(self):
        base = [1.00, 1.01, 0.99, 1.02, 1.00, 0.98]
        plain = results.load(FIXTURE)
        self.assertEqual(compare.machine_speed(plain, results.load(FIXTURE)), "")
        old = self.with_probe(results.load(FIXTURE), base)
        self.assertIn("Only the old file has calibration probes",
                      compare.machine_speed(old, plain))
        same = compare.machine_speed(old, self.with_probe(results.load(FIXTURE), base))
        self.assertIn("No probe moved", same)
        self.assertIn("| `calibration/0-999/compute` |", same)
        slow = self.with_probe(results.load(FIXTURE), [t * 1.6 for t in base])
        text = compare.machine_speed(old, slow)
        self.assertIn("**The machine ran at another speed in the new run** (1 of 1 probes", text)
        self.assertIn("| slower |", text)
        # The probes are not among the benchmarks compared.
        self.assertNotIn("calibration/", compare.utest_table(old, slow))

    def test_context_differences(self):
        old = results.load(FIXTURE)
        new = results.load(FIXTURE)
        self.assertEqual(compare.context_differences(old, new), "")
        old.context["cpu_model"] = "Intel(R) Xeon(R) (family 6, model 143, stepping 8)"
        new.context["cpu_model"] = "AMD EPYC (family 26, model 2, stepping 1)"
        new.context["library.pugixml"] = "1.14"
        text = compare.context_differences(old, new)
        self.assertIn("different machines", text)
        self.assertIn("| cpu_model | Intel(R) Xeon(R) (family 6, model 143, stepping 8) | "
                      "AMD EPYC (family 26, model 2, stepping 1) |", text)
        self.assertIn("| library.pugixml | (not recorded) | 1.14 |", text)
        self.assertNotIn("| date |", text)  # always differs: not a difference of setting

    def test_context_differences_caches(self):
        old = results.load(FIXTURE)
        new = results.load(FIXTURE)
        old.context["caches"] = [{"type": "Data", "level": 1, "size": 49152, "num_sharing": 1},
                                 {"type": "Unified", "level": 3, "size": 272629760,
                                  "num_sharing": 2}]
        new.context["caches"] = []
        self.assertIn("| caches | L1d 48 KiB, L3u 260 MiB | (none reported) |",
                      compare.context_differences(old, new))

    def test_context_differences_build_only(self):
        old = results.load(FIXTURE)
        new = results.load(FIXTURE)
        new.context["cxx_flags"] = "-O3"
        text = compare.context_differences(old, new)
        self.assertIn("| cxx_flags |", text)
        self.assertNotIn("different machines", text)

    def test_compare_command_shows_other_machine(self):
        with open(FIXTURE) as f:
            data = json.load(f)
        data["context"]["cpu_model"] = "AMD EPYC (family 26, model 2, stepping 1)"
        data["context"]["host_name"] = "another-vm"
        with tempfile.TemporaryDirectory() as tmp:
            other = os.path.join(tmp, "other.json")
            with open(other, "w") as f:
                json.dump(data, f)
            done = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "commands",
                                                                "compare.py"), FIXTURE, other,
                                   "--html", os.path.join(tmp, "compare.html")],
                                  capture_output=True, text=True, timeout=120)
            self.assertTrue(os.path.getsize(os.path.join(tmp, "compare.html")) > 100_000)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(done.stdout.startswith("## Context differences"), done.stdout[:200])
        self.assertIn("different machines", done.stdout)

    def test_compare_command(self):
        with open(FIXTURE) as f:
            data = json.load(f)
        for entry in data["benchmarks"]:
            entry["cpu_time"] *= 1.5
        with tempfile.TemporaryDirectory() as tmp:
            slower = os.path.join(tmp, "slower.json")
            with open(slower, "w") as f:
                json.dump(data, f)
            done = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "commands",
                                                                "compare.py"), FIXTURE, slower,
                                   "--html", os.path.join(tmp, "compare.html")],
                                  capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("## U-test", done.stdout)
        self.assertIn("## wirebench summary", done.stdout)

if __name__ == "__main__":
    unittest.main()
