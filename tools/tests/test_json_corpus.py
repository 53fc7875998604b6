"""The generated JSON conformance corpus: committed as generated, labelled as an
independent parser (Python's json, strict) reads it, Table 3-7 as Python's
UTF-8 codec reads it, and no smaller than JSONTestSuite's where that is at hand."""

import itertools
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

from tests import external_corpus
from wbtools.jsoncorpus import compare, corpus, utf8

ROOT = pathlib.Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "conformance" / "json"
SCRIPT = ROOT / "tools" / "gen_json_corpus.py"
CASES = corpus.build()


def python_accepts(data):
    """Python's json as an oracle: strict UTF-8, no NaN or Infinity."""
    def no_constant(name):
        raise ValueError(name)
    try:
        json.loads(data.decode("utf-8"), parse_constant=no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return True


class CommittedCorpusTest(unittest.TestCase):
    def test_the_committed_corpus_is_what_the_script_writes(self):
        self.assertEqual(corpus.differences(FOLDER, CASES), [],
                         "run tools/gen_json_corpus.py and commit fixtures/conformance/json")

    def test_check_fails_on_a_changed_file_and_write_restores_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = lambda *a: subprocess.run([sys.executable, str(SCRIPT), "--out", tmp, *a],
                                            capture_output=True, text=True)
            self.assertEqual(run().returncode, 0)
            self.assertEqual(run("--check").returncode, 0)
            victim = pathlib.Path(tmp) / CASES[0].name
            victim.write_bytes(b"[]")
            (pathlib.Path(tmp) / "y_array_stray.json").write_bytes(b"[]")
            checked = run("--check")
            self.assertEqual(checked.returncode, 1)
            self.assertIn(f"differs: {CASES[0].name}", checked.stdout)
            self.assertIn("not generated: y_array_stray.json", checked.stdout)
            self.assertEqual(run().returncode, 0)
            self.assertEqual(run("--check").returncode, 0)

    def test_every_case_has_a_one_line_reason_in_the_index(self):
        lines = (FOLDER / corpus.INDEX).read_text(encoding="utf-8").splitlines()
        rows = [line.split("\t") for line in lines if not line.startswith("#")]
        self.assertEqual([r[0] for r in rows], [c.name for c in CASES])
        self.assertTrue(all(len(r) == 2 and r[1].strip() for r in rows))


class LabelsTest(unittest.TestCase):
    def test_python_json_accepts_every_y_case_and_rejects_every_n_case(self):
        wrong = [c.name for c in CASES
                 if c.label != "i" and python_accepts(c.data) != (c.label == "y")]
        self.assertEqual(wrong, [])

    def test_each_group_has_cases_of_every_label_it_can_have(self):
        counts = corpus.counts(c.name for c in CASES)
        for group in ("number", "object", "string", "structure"):
            for label in "yni":
                self.assertGreater(counts[(label, group)], 0, f"{label}_{group}")

    def test_every_ill_formed_class_is_rejected_as_a_string(self):
        names = {c.name for c in CASES}
        for slug, _, _ in utf8.ill_formed():
            self.assertIn(f"n_string_utf8_{slug}.json", names)


class Table37Test(unittest.TestCase):
    def test_encode_matches_pythons_codec_at_every_row_edge(self):
        for cp, _ in utf8.row_boundaries():
            for near in (cp - 1, cp, cp + 1):
                if 0 <= near <= 0x10FFFF and not 0xD800 <= near <= 0xDFFF:
                    self.assertEqual(utf8.encode(near), chr(near).encode(), hex(near))

    def test_well_formed_matches_pythons_codec_on_every_two_byte_pair(self):
        for a, b in itertools.product(range(256), repeat=2):
            seq = bytes([a, b])
            try:
                seq.decode("utf-8")
                python = True
            except UnicodeDecodeError:
                python = False
            self.assertEqual(utf8.well_formed(seq), python, seq.hex())

    def test_well_formed_matches_pythons_codec_on_lead_and_second_bytes(self):
        for lead, second in itertools.product(range(0xC0, 0x100), range(256)):
            for tail in (b"\x80\x80", b"\xbf\xbf", b"\x80A"):
                seq = bytes([lead, second]) + tail[:max(0, (lead >= 0xE0) + (lead >= 0xF0))]
                try:
                    seq.decode("utf-8")
                    python = True
                except UnicodeDecodeError:
                    python = False
                self.assertEqual(utf8.well_formed(seq), python, seq.hex())

    def test_every_ill_formed_class_is_ill_formed_to_both(self):
        for slug, seq, _ in utf8.ill_formed():
            self.assertFalse(utf8.well_formed(seq), slug)
            with self.assertRaises(UnicodeDecodeError, msg=slug):
                seq.decode("utf-8")


class AgainstJsonTestSuiteTest(unittest.TestCase):
    """JSONTestSuite's test_parsing, when WIREBENCH_CORPUS provides it."""

    SUB = "conformance/json/test_parsing"

    def setUp(self):
        self.theirs = external_corpus.folder(self.SUB)
        if self.theirs is None:
            self.skipTest(external_corpus.skip_line("the comparison with JSONTestSuite", self.SUB))
        self.assertTrue(self.theirs.is_dir(), f"{self.theirs}: WIREBENCH_CORPUS lacks it")

    def test_as_many_cases_in_every_group(self):
        self.assertEqual(compare.short_of([c.name for c in CASES],
                                          list(corpus.case_files(self.theirs))), [])

    def test_the_same_bytes_have_the_same_expected_outcome(self):
        pairs = corpus.same_content(CASES, self.theirs)
        self.assertGreater(len(pairs), 0)
        self.assertEqual([(theirs, ours.name) for theirs, ours in pairs
                          if theirs[0] != ours.label], [])


if __name__ == "__main__":
    unittest.main()
