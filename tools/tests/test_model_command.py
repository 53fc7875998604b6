"""`wirebench model`'s output: the fastest call per link and payload with its ties first and
short by default, the fastest call per format (--per-format) and the full ranking (--top N,
--all) on request, and --top held to a count."""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from wbtools.transfer import links, calls, model_view
from wbtools import results

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = os.path.join(os.path.dirname(HERE), "commands")
# A racing run in rounds (json message/100): its calls have intervals, and some tie.
RACING = os.path.join(HERE, "data", "racing-json-message-100.json")

# A format the tools have never heard of: the model must not assume json/atom/soap/wcfjson.
FORMATS = ("json", "atom", "newformat")
# (dataset, rows): one call payload and the science page and subset (the paged sequence).
CASES = (("airport", 101), ("science", 1000), ("science", 8100))


def synthetic_file(path, libraries):
    """A result file with `libraries` serializers and parsers per format, every parser timed on
    every serializer's bytes, gzip beside each: libraries**2 * 2 pairings per payload. Times
    are invented and distinct; a format's bytes grow with its place in FORMATS."""
    benchmarks = []

    def add(name, micros, **counters):
        for index in range(3):
            benchmarks.append({"name": name, "run_name": name, "run_type": "iteration",
                               "repetition_index": index, "iterations": 100,
                               "cpu_time": micros * (1 + index / 100), "real_time": micros,
                               "time_unit": "us", **counters})

    for f, fmt in enumerate(FORMATS):
        for dataset, rows in CASES:
            case = f"{fmt}/{dataset}/{rows}"
            size = rows * 100 * (f + 1)
            add(f"{case}/compress/gzip", rows * 0.5)
            add(f"{case}/decompress/gzip", rows * 0.1)
            for s in range(libraries):
                add(f"{case}/encode/writer{s}", rows * (1 + s / 10 + f),
                    wire_bytes=size, gzip_bytes=size // 5)
                for p in range(libraries):
                    add(f"{case}/decode/reader{p}/from:writer{s}", rows * (2 + p / 7 + f))
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"context": {}, "benchmarks": benchmarks}, handle)


def run_model(*args):
    done = subprocess.run([sys.executable, os.path.join(COMMANDS, "model.py"), *args],
                          capture_output=True, text=True, timeout=300)
    return done


def table_rows(text, first_header):
    """The body rows (lists of cells) of every Markdown table whose first header is
    first_header."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| "):
            if cells[0] == first_header:
                inside = True
            elif inside and not set(cells[0]) <= set("-:"):
                rows.append(cells)
        else:
            inside = False
    return rows


class ModelDefault(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.few = os.path.join(cls.tmp.name, "few.json")
        cls.many = os.path.join(cls.tmp.name, "many.json")
        synthetic_file(cls.few, 2)
        synthetic_file(cls.many, 6)
        cls.done = run_model(cls.many)
        cls.per_format = run_model(cls.many, "--per-format")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_default_is_as_long_for_many_libraries_as_for_few(self):
        # 6 libraries make 9x the pairings of 2; the default shows one call per link and
        # payload, and --per-format one per format.
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        for extra, most in (((), 100), (("--per-format",), 250)):
            with self.subTest(extra=extra):
                many = run_model(self.many, *extra).stdout
                few = run_model(self.few, *extra).stdout
                self.assertEqual(len(many.splitlines()), len(few.splitlines()))
                self.assertLess(len(many.splitlines()), most)
                self.assertNotIn("one call:", many)  # no ranking of a payload's pairings

    def test_default_answers_one_row_per_link_and_payload(self):
        rows = table_rows(self.done.stdout, "link")
        chosen = links.pick(links.load_links(None), None)
        answer = [r for r in rows if len(r) == 8]
        self.assertEqual([(r[0], r[1]) for r in answer],
                         [(f"`{link.name}`", f"{ds} {n:,}") for link in chosen
                          for ds, n in CASES])
        # Nothing per format by default: no table opens with "payload".
        self.assertEqual(table_rows(self.done.stdout, "payload"), [])
        self.assertNotIn("### Link `", self.done.stdout)

    def test_answer_is_the_model_fastest_call_and_its_ties(self):
        done = run_model(RACING)
        self.assertEqual(done.returncode, 0, done.stderr)
        pairings = calls.collect(results.load(RACING))
        chosen = links.pick(links.load_links(None), None)
        rows = [r for r in table_rows(done.stdout, "link") if len(r) == 8]
        expected = []
        for link in chosen:
            for ds, n in pairings.cases():
                ranked = calls.rank(pairings.of_case(ds, n), link)
                ties = calls.tied_with_fastest(ranked)
                expected.append([model_view.call_label(ranked[0][0]),
                                 model_view._tied_text(ties)])
        self.assertEqual([[r[2], r[7]] for r in rows], expected)
        # Its two simdjson decoders are tied.
        self.assertTrue(any(r[7] != "-" for r in rows), rows)

    def test_answer_in_json_beside_every_pairing(self):
        done = run_model(RACING, "--json", "--link", "lan")
        self.assertEqual(done.returncode, 0, done.stderr)
        data = json.loads(done.stdout)
        self.assertEqual(sorted(data), ["answer", "links", "notes", "relay_2009_fit"])
        self.assertEqual([(a["link"], a["dataset"], a["rows"]) for a in data["answer"]],
                         [("lan", "message", 100)])
        pairings = data["links"][0]["pairings"]
        for entry in data["answer"]:
            first = next(p for p in pairings
                         if (p["dataset"], p["rows"]) == (entry["dataset"], entry["rows"]))
            self.assertEqual(entry["fastest"], {k: first[k] for k in (
                "format", "serializer", "parser", "compression")})
            tied = [{k: p[k] for k in ("format", "serializer", "parser", "compression")}
                    for p in pairings if (p["dataset"], p["rows"]) ==
                    (entry["dataset"], entry["rows"]) and p["standing"] == "tied"]
            self.assertEqual(entry["tied_with"], tied)
        self.assertTrue(any(entry["tied_with"] for entry in data["answer"]))

    def test_one_row_per_link_payload_and_format_fastest_first(self):
        rows = table_rows(self.per_format.stdout, "payload")
        links = self.per_format.stdout.count("### Link `")
        self.assertEqual(len(rows), links * len(CASES) * len(FORMATS))
        seconds = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
        for start in range(0, len(rows), len(FORMATS)):
            group = rows[start:start + len(FORMATS)]
            self.assertEqual(len({r[0] for r in group}), 1, group)  # one payload
            self.assertEqual(sorted(r[1] for r in group), sorted(FORMATS))
            totals = [float(r[7].split()[0]) * seconds[r[7].split()[1]] for r in group]
            self.assertEqual(totals, sorted(totals), group)

    def test_rows_are_the_model_fastest_pairing(self):
        # airport 101 on every link: the row of each format is calls.fastest_per_format's.
        result = results.load(self.many)
        pairings = calls.collect(result)
        rows = [r for r in table_rows(self.per_format.stdout, "payload")
                if r[0] == "airport 101"]
        chosen = links.pick(links.load_links(None), None)
        expected = []
        for link in chosen:
            for p, _ in calls.fastest_per_format(pairings.of_case("airport", 101), link):
                expected.append([p.format, f"{p.serializer} -> {p.parser}", p.compression])
        self.assertEqual([r[1:4] for r in rows], expected)
        self.assertIn(["json", "writer0 -> reader0", "none"], expected)

    def test_paged_sequence_is_one_per_format(self):
        # The relay-2009 fit's table, last, also opens with "format".
        per_format = self.per_format.stdout.split("## Fastest call per format")[1]
        rows = table_rows(per_format.split("## relay-2009 fit")[0], "format")
        links = self.per_format.stdout.count("### Link `")
        self.assertEqual(len(rows), links * len(FORMATS))

    def test_paged_answer_is_one_per_link(self):
        rows = table_rows(self.done.stdout, "link")
        paged = [r for r in rows if len(r) == 6]
        chosen = links.pick(links.load_links(None), None)
        self.assertEqual([r[0] for r in paged], [f"`{link.name}`" for link in chosen])
        pairings = calls.collect(results.load(self.many))
        for link, row in zip(chosen, paged):
            self.assertEqual(row[1], model_view.call_label(
                calls.paged_sequence(pairings, link)[0][0]))


class ModelOnRequest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "result.json")
        synthetic_file(cls.path, 3)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_top_shortens_rankings_and_paged_sequences(self):
        done = run_model(self.path, "--link", "lan", "--top", "2")
        self.assertEqual(done.returncode, 0, done.stderr)
        ranked = table_rows(done.stdout, "#")
        self.assertEqual(len(ranked), 2 * len(CASES))
        # The paged table of the ranking part: 2 rows, not 3 formats x 18 pairings.
        ranking_part = done.stdout.split("## The 2 fastest pairings per payload", 1)[1]
        self.assertEqual(len(table_rows(ranking_part, "format")), 2)
        self.assertIn("slower sequences not shown", ranking_part)

    def test_all_shows_every_pairing(self):
        done = run_model(self.path, "--link", "lan", "--all")
        self.assertEqual(done.returncode, 0, done.stderr)
        # 3 formats x 3 serializers x 3 parsers x (none, gzip) per payload.
        self.assertEqual(len(table_rows(done.stdout, "#")), len(CASES) * 3 * 3 * 3 * 2)

    def test_top_must_be_a_count(self):
        for value, message in (("-3", "-3 is not a count"), ("0", "0 is not a count"),
                               ("three", "'three' is not a whole number")):
            with self.subTest(top=value):
                done = run_model(self.path, "--top", value)
                self.assertEqual(done.returncode, 2)
                self.assertEqual(done.stdout, "")
                # The error alone, on one line, first: not after the usage block.
                self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
                self.assertTrue(done.stderr.startswith("wirebench model: error: "), done.stderr)
                self.assertIn(message, done.stderr)

    def test_top_and_all_exclude_each_other(self):
        done = run_model(self.path, "--top", "2", "--all")
        self.assertEqual(done.returncode, 2)
        self.assertIn("not allowed with", done.stderr)


class JsonErrors(unittest.TestCase):
    def test_truncated_file_message_reads_once(self):
        # Cut inside a string: json's message ends in "starting at", which once read
        # "starting at at line 2811".
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cut.json")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write('{"context": {}, "benchmarks": [{"name": "json/airpo')
            done = run_model(path)
        self.assertEqual(done.returncode, 2)
        self.assertNotIn("at at", done.stderr)
        self.assertRegex(done.stderr, r"truncated: unterminated string starting at line 1, "
                                      r"column \d+\)$")

    def test_missing_field_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "odd.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump({"benchmarks": [{"name": "json/a/1/encode/x", "real_time": 1}]}, handle)
            done = run_model(path)
        self.assertEqual(done.returncode, 2)
        self.assertIn("is malformed (no 'cpu_time' field)", done.stderr)
        self.assertFalse(re.search(r"KeyError", done.stderr), done.stderr)


if __name__ == "__main__":
    unittest.main()


class StandIn(unittest.TestCase):
    """At a size other than the field size the run decodes one serializer's bytes: the
    reference writer's, or a format without one (the binary formats) its first encoder's.
    Every other serializer of the format is paired with those decode times, never with 0."""

    def pairings(self, sources):
        benchmarks = []
        for name, micros in [("protobuf/science/8100/encode/libprotobuf", 100),
                             ("protobuf/science/8100/encode/protobuf-c", 120)] + [
                (f"protobuf/science/8100/decode/{p}/from:{s}", 300) for s in sources
                for p in ("libprotobuf", "protobuf-c")]:
            counters = {"wire_bytes": 1000} if "/encode/" in name else {}
            benchmarks.append({"name": name, "run_name": name, "run_type": "iteration",
                               "repetition_index": 0, "iterations": 10, "cpu_time": micros,
                               "real_time": micros, "time_unit": "us", **counters})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump({"context": {}, "benchmarks": benchmarks}, handle)
            return calls.collect(results.load(path))

    def test_a_format_without_a_reference_writer_takes_its_first_encoders_bytes(self):
        found = self.pairings(["libprotobuf"])
        by_encoder = {}
        for p in found.items:
            by_encoder.setdefault(p.serializer, []).append(p)
        self.assertEqual(sorted(by_encoder), ["libprotobuf", "protobuf-c"])
        for p in found.items:
            self.assertGreater(p.decode, 0, f"{p.serializer} -> {p.parser}")
        self.assertFalse([n for n in found.notes if "counts as 0" in n], found.notes)

    def test_a_stand_in_time_is_scaled_by_what_the_writers_bytes_cost_where_both_ran(self):
        # At 100 rows simdjson took 3x as long on yajl's bytes as on the reference writer's
        # (yajl spells doubles with 20 digits): at 8100 rows, where it decoded only the
        # reference writer's bytes, the yajl pairing gets 3x that time, not the same time.
        times = {"json/science/100/encode/reference": 10, "json/science/100/encode/yajl": 10,
                 "json/science/100/decode/simdjson/from:reference": 20,
                 "json/science/100/decode/simdjson/from:yajl": 60,
                 "json/science/8100/encode/reference": 100, "json/science/8100/encode/yajl": 100,
                 "json/science/8100/decode/simdjson/from:reference": 300}
        benchmarks = [{"name": name, "run_name": name, "run_type": "iteration",
                       "repetition_index": 0, "iterations": 10, "cpu_time": micros,
                       "real_time": micros, "time_unit": "us",
                       **({"wire_bytes": 1000} if "/encode/" in name else {})}
                      for name, micros in times.items()]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump({"context": {}, "benchmarks": benchmarks}, handle)
            found = calls.collect(results.load(path))
        decode = {(p.rows, p.serializer): p.decode for p in found.items}
        self.assertAlmostEqual(decode[(8100, "reference")], 300e-6)
        self.assertAlmostEqual(decode[(8100, "yajl")], 900e-6)
        self.assertAlmostEqual(decode[(100, "yajl")], 60e-6)
        self.assertTrue([n for n in found.notes if "scaled by the ratio" in n], found.notes)
