"""`wirebench compare`: where its page goes (never into results/, the published tree, unless
--html says so), and a file compared with itself said in one line."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from wbtools import compare

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = os.path.join(os.path.dirname(HERE), "commands")
FIXTURE = os.path.join(HERE, "data", "synthetic.json")


def run_compare(*args):
    return subprocess.run([sys.executable, os.path.join(COMMANDS, "compare.py"), *args],
                          capture_output=True, text=True, timeout=120)


def slower_copy(path):
    """The fixture with every CPU time 1.5x: a second run that differs from the first."""
    with open(FIXTURE, encoding="utf-8") as handle:
        data = json.load(handle)
    for entry in data["benchmarks"]:
        entry["cpu_time"] *= 1.5
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)


class PagePath(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.results = os.path.join(self.root, "results")
        self.build = os.path.join(self.root, "build")
        os.makedirs(self.results)

    def tearDown(self):
        self.tmp.cleanup()

    def inside_results(self, path):
        results = os.path.realpath(self.results)
        return os.path.commonpath([os.path.realpath(path), results]) == results

    def test_a_new_file_in_results_puts_the_page_in_build(self):
        old = os.path.join(self.results, "A.json")
        new = os.path.join(self.results, "B.json")
        path = compare.page_path(old, new, self.results, self.build)
        self.assertFalse(self.inside_results(path), path)
        self.assertEqual(path, os.path.join(self.build, "compare", "A-vs-B.html"))

    def test_results_reached_through_a_symlink_or_dots_is_results(self):
        link = os.path.join(self.root, "elsewhere")
        os.symlink(self.results, link)
        for new in (os.path.join(link, "B.json"),
                    os.path.join(self.results, "..", "results", "B.json")):
            with self.subTest(new=new):
                path = compare.page_path("/x/A.json", new, self.results, self.build)
                self.assertFalse(self.inside_results(path), path)

    def test_a_new_file_elsewhere_keeps_its_page_beside_it(self):
        mine = os.path.join(self.root, "mine")
        path = compare.page_path(os.path.join(self.results, "A.json"),
                                 os.path.join(mine, "B.json"), self.results, self.build)
        self.assertEqual(path, os.path.join(os.path.realpath(mine), "B", "compare-A.html"))

    def test_the_command_writes_where_it_says(self):
        new = os.path.join(self.root, "new.json")
        slower_copy(new)
        done = run_compare(FIXTURE, new)
        self.assertEqual(done.returncode, 0, done.stderr)
        said = done.stdout.rstrip().splitlines()[-1]
        self.assertTrue(said.startswith("The page: "), said)
        page = said[len("The page: "):]
        self.assertEqual(page, os.path.join(os.path.realpath(self.root), "new",
                                            "compare-synthetic.html"))
        self.assertGreater(os.path.getsize(page), 100_000)


class SameFile(unittest.TestCase):
    def test_a_file_with_itself_is_said_in_one_line(self):
        done = run_compare(FIXTURE, FIXTURE)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(len(lines), 1, done.stdout)
        self.assertIn("are the same file", lines[0])
        self.assertNotIn("| same |", done.stdout)

    def test_identical_copies_are_said_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "copy.json")
            shutil.copy(FIXTURE, copy)
            done = run_compare(FIXTURE, copy)
            self.assertEqual(os.listdir(tmp), ["copy.json"])  # and no page beside it
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("identical contents", done.stdout)
        self.assertEqual(len(done.stdout.splitlines()), 1, done.stdout)

    def test_top_must_be_a_count(self):
        done = run_compare(FIXTURE, FIXTURE, "--top", "-1")
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr.count("\n"), 1, done.stderr)
        self.assertIn("-1 is not a count", done.stderr)


if __name__ == "__main__":
    unittest.main()
