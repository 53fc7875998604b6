"""A payload run (`./wirebench bench --payload`): the answer per file (fastest parser, ties,
verdicts, sizes), its calls for the transfer model, its scope, and the sample payloads."""

import json
import os
import tempfile
import unittest

from wbtools import report, results, sample_payloads
from wbtools.results import payload, runs
from wbtools.page import chromium
from wbtools.transfer import links, calls

CASE = "json/file:numbers/4000"


def entries(name, times_us, counters=None):
    """Six repetitions of a benchmark, as Google Benchmark writes them."""
    out = []
    for index, cpu in enumerate(times_us):
        item = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 6,
                "repetition_index": index, "threads": 1, "iterations": 10, "real_time": cpu,
                "cpu_time": cpu, "time_unit": "us"}
        item.update(counters or {})
        out.append(item)
    return out


def payload_result(folder):
    """A result file of a payload run over one 4,000-byte JSON file: simdjson-dom fastest,
    rapidjson-dom within noise of it, nlohmann-dom far slower, cjson rejected it."""
    benchmarks = (entries(f"{CASE}/parse-only/simdjson-dom", [10, 11, 10, 12, 10, 11])
                  # The memory run's entry for simdjson-dom (one call after the timed ones).
                  + [{"name": f"{CASE}/parse-only/simdjson-dom",
                      "run_name": f"{CASE}/parse-only/simdjson-dom", "run_type": "iteration",
                      "iterations": 1, "real_time": 1, "cpu_time": 1, "time_unit": "ns",
                      "allocs_per_iter": 3, "max_bytes_used": 12288}]
                  + entries(f"{CASE}/parse-only/rapidjson-dom", [11, 10, 12, 10, 11, 10])
                  + entries(f"{CASE}/parse-only/nlohmann-dom", [40, 41, 42, 40, 41, 43])
                  + entries(f"{CASE}/compress/zstd", [30] * 6,
                            {"wire_bytes": 4000, "compressed_bytes": 1000})
                  + entries(f"{CASE}/decompress/zstd", [5] * 6,
                            {"wire_bytes": 4000, "compressed_bytes": 1000})
                  + [{"name": f"{CASE}/parse-only/cjson", "run_name": f"{CASE}/parse-only/cjson",
                      "run_type": "iteration", "error_occurred": True,
                      "error_message": "cjson: parse error (at byte 7)"}])
    context = {"run_scope": "payload", "run_kind": "payload",
               "payload.file:numbers.path": "/data/numbers.json",
               "payload.file:numbers.bytes": "4000", "payload.file:numbers.sha256": "ab" * 32,
               "payload.file:numbers.kind": "json", "payload.file:numbers.case": CASE}
    path = os.path.join(folder, "20260101T000000Z-test-cpu-abc1234.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"context": context, "benchmarks": benchmarks}, handle)
    verdict = {"files": [{"path": "/data/numbers.json", "kind": "json", "bytes": 4000,
                          "verdicts": [
                              {"op": "parse-only", "library": "simdjson-dom",
                               "verdict": "accepted", "offset": -1, "error": "", "answer": "",
                               "values": "[inf]", "mark": "accepts what 1 reject"},
                              {"op": "parse-only", "library": "cjson", "verdict": "rejected",
                               "offset": 7, "error": "cjson: parse error (at byte 7)",
                               "answer": "", "mark": ""}]}]}
    return path, verdict


class Answer(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        path, self.verdict = payload_result(self.folder.name)
        self.result = results.load(path)

    def tearDown(self):
        self.folder.cleanup()

    def test_fastest_parser_with_its_ties(self):
        [entry] = payload.answer(self.result, self.verdict)
        self.assertEqual(entry["name"], "numbers")
        self.assertEqual(entry["case"], "file:numbers/4000")
        self.assertEqual(entry["fastest"], ["simdjson-dom", "rapidjson-dom"])
        verdicts = {p["library"]: p["verdict"] for p in entry["parsers"]}
        self.assertEqual(verdicts["nlohmann-dom"], "slower")
        self.assertIn("tied with rapidjson-dom", payload.headline(entry))

    def test_memory_of_one_parse_per_library(self):
        [entry] = payload.answer(self.result, self.verdict)
        memory = {p["library"]: (p["peak"], p["allocs"]) for p in entry["parsers"]}
        self.assertEqual(memory["simdjson-dom"], (12288, 3))
        self.assertEqual(memory["nlohmann-dom"], (None, None))

    def test_rejected_parser_is_a_row_not_timed(self):
        [entry] = payload.answer(self.result, self.verdict)
        cjson = [p for p in entry["parsers"] if p["library"] == "cjson"]
        self.assertEqual(len(cjson), 1)
        self.assertIsNone(cjson[0]["time"])
        self.assertEqual(cjson[0]["outcome"], "rejected")
        self.assertEqual(cjson[0]["offset"], 7)
        self.assertEqual(entry["parsers"][-1]["library"], "cjson")
        self.assertEqual((cjson[0]["peak"], cjson[0]["allocs"]), (None, None))
        marks = {p["library"]: p["mark"] for p in entry["parsers"]}
        self.assertEqual(marks["simdjson-dom"], "accepts what 1 reject")
        values = {p["library"]: p["values"] for p in entry["parsers"]}
        self.assertEqual((values["simdjson-dom"], values["cjson"]), ("[inf]", ""))

    def test_sizes_raw_then_each_compressor(self):
        [entry] = payload.answer(self.result, self.verdict)
        self.assertEqual(entry["sizes"], [["raw", 4000], ["zstd", 1000]])
        self.assertEqual(entry["sha256"], "ab" * 32)

    def test_calls_for_the_transfer_model(self):
        pairings = calls.collect(self.result)
        by_pair = {(p.parser, p.compression): p for p in pairings.of_case("file:numbers", 4000)}
        self.assertEqual(set(by_pair), {(lib, comp) for lib in
                                      ("simdjson-dom", "rapidjson-dom", "nlohmann-dom")
                                      for comp in ("none", "zstd")})
        call = by_pair[("simdjson-dom", "zstd")]
        self.assertEqual((call.serializer, call.encode, call.wire_bytes), ("file", 0.0, 1000))
        self.assertAlmostEqual(call.compress, 30e-6)
        self.assertEqual(by_pair[("nlohmann-dom", "none")].wire_bytes, 4000)

    def test_never_the_whole_suite(self):
        run = runs.load_run(self.folder.name, "20260101T000000Z-test-cpu-abc1234")
        self.assertFalse(run.whole_suite)
        self.assertEqual(run.description(), "payload: numbers")

    def test_report_rows_stay_one_line(self):
        self.verdict["files"][0]["verdicts"][1]["error"] = "cjson: line 1\n  a | b"
        text = report._payload_answer(payload.answer(self.result, self.verdict))
        [row] = [line for line in text.splitlines() if line.startswith("| cjson")]
        self.assertIn("cjson: line 1 a \\| b", row)
        [row] = [line for line in text.splitlines() if line.startswith("| simdjson-dom")]
        self.assertIn("accepted: `[inf]`", row)
        self.assertTrue(text.startswith("**numbers (4,000 bytes, json): fastest parse-only is "
                                        "simdjson-dom, tied with rapidjson-dom"))

    def test_verdict_file_checked(self):
        bad = os.path.join(self.folder.name, "bad.json")
        with open(bad, "w", encoding="utf-8") as handle:
            handle.write("{}")
        with self.assertRaises(Exception):
            payload.load_verdict(bad)


@unittest.skipUnless(chromium.find(), "needs Chromium (package chromium)")
class Page(unittest.TestCase):
    """The page of a payload run, in headless Chromium at a desktop's and a phone's width:
    it opens with the answer for the file, with no console error."""

    def test_opens_with_the_fastest_parser(self):
        with tempfile.TemporaryDirectory() as folder:
            path, verdict = payload_result(folder)
            out = os.path.join(folder, "report")
            report.write(results.load(path), list(links.load_links().values()), out,
                         verdict=verdict)
            with chromium.Browser() as browser:
                for width, mobile in ((1400, False), (390, True)):
                    browser.open(os.path.join(out, report.PAGE), width, 900, mobile=mobile)
                    browser.drain()
                    self.assertEqual(browser.console_errors, [])
                    self.assertEqual(browser.evaluate(
                        "document.querySelector('main section:not([hidden])').id"),
                        "payload-section")
                    answer = browser.evaluate(
                        "document.querySelector('.payload-answer').textContent")
                    self.assertTrue(answer.startswith(
                        "numbers: fastest parse-only is simdjson-dom, tied with rapidjson-dom"),
                        answer)
                    self.assertEqual(browser.evaluate("document.getElementById('case').value"),
                                     "file:numbers/4000")
                    rejected = browser.evaluate(
                        "[...document.querySelectorAll('td.verdict-bad')]"
                        ".map((td) => td.textContent).join('|')")
                    self.assertIn("rejected: cjson: parse error (at byte 7)", rejected)
                    accepted = browser.evaluate(
                        "[...document.querySelectorAll('td.verdict-ok')]"
                        ".map((td) => td.textContent).join('|')")
                    self.assertIn("accepted: [inf]", accepted)


class SamplePayloads(unittest.TestCase):
    def test_deterministic_and_shaped(self):
        self.assertEqual(sample_payloads.numbers(20000), sample_payloads.numbers(20000))
        numbers = json.loads(sample_payloads.numbers(20000))
        self.assertGreater(len(numbers["coordinates"]), 1)
        strings = sample_payloads.strings(20000).decode("utf-8")
        # Every width of UTF-8: two, three and four bytes.
        for low, high in ((0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, 0x10FFFF)):
            self.assertTrue(any(low <= ord(c) <= high for c in strings), hex(low))
        nested = json.loads(sample_payloads.nested(20000, depth=50))
        depth, node = 0, nested[0]
        while isinstance(node, (list, dict)):
            node = node[1] if isinstance(node, list) else node["v"]
            depth += 1
        self.assertEqual(depth, 50)
        xml = sample_payloads.namespaced_xml(5000).decode("utf-8")
        self.assertIn('xmlns:c="urn:example:catalog"', xml)
        self.assertGreaterEqual(len(xml.encode()), 5000)

    def test_edges_hold_what_parsers_read_differently(self):
        edges = sample_payloads.edges()
        self.assertIn(b"\\ud800", edges)
        self.assertIn(b"1e400", edges)
        self.assertEqual(edges.count(b'"dup"'), 2)


if __name__ == "__main__":
    unittest.main()
