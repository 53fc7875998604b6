"""The tree holds only what this project wrote: no file under fixtures/ names
another project's licence or source repository, and no file reaches for the
shared corpora beside the clone by a relative path (they come through
WIREBENCH_CORPUS, docs/testing.md)."""

import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Files that carry another project's terms or provenance.
FOREIGN_NAME = re.compile(
    r"(?i)^(licen[cs]e|copying|notice|copyright|authors|credits|sources|third[-_]?party)"
    r"([-_.].*)?$")
# What such a file or a payload copied from elsewhere says inside.
FOREIGN_TEXT = re.compile(
    rb"(?i)(\bcopyright\b|\(c\) ?(19|20)\d\d|\blicen[cs]ed?\b|spdx-license-identifier"
    rb"|\b(github|gitlab|bitbucket|codeberg)\.(com|org)\b|\bsourceforge\.net\b)")

SOURCE_PATTERNS = ("*.cpp", "*.hpp", "*.py", "*.sh", "*.cmake", "CMakeLists.txt", "wirebench")
SKIPPED_DIRS = {".git", "build", "results"}
# Spelled in two parts so that this file does not match itself.
SHARED_PATH = ".." + "/shared"


def foreign_marks(folder):
    """'path: why' for every file under folder that names another project."""
    marks = []
    for path in sorted(p for p in pathlib.Path(folder).rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if FOREIGN_NAME.match(path.name):
            marks.append(f"{rel}: its name is a licence or provenance file's")
        found = FOREIGN_TEXT.search(path.read_bytes())
        if found:
            marks.append(f"{rel}: says {found.group(0).decode('latin-1')!r}")
    return marks


def sources():
    """The project's code and scripts, outside build and result folders."""
    for pattern in SOURCE_PATTERNS:
        for path in ROOT.rglob(pattern):
            if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts):
                yield path


class TreeOwnTest(unittest.TestCase):
    def test_no_fixture_names_another_projects_licence_or_repository(self):
        self.assertTrue((ROOT / "fixtures").is_dir())
        self.assertEqual(foreign_marks(ROOT / "fixtures"), [],
                         "fixtures/ holds only what this project wrote: third-party corpora "
                         "are read through WIREBENCH_CORPUS")

    def test_the_patterns_catch_what_they_are_for(self):
        names = ("LICENSE", "LICENSE-Other", "COPYING", "NOTICE.txt", "SOURCES.md")
        self.assertTrue(all(FOREIGN_NAME.match(n) for n in names))
        self.assertFalse(any(FOREIGN_NAME.match(n) for n in ("cases.tsv", "hostile.tsv",
                                                             "n_string_unclosed.json")))
        for text in (b"Copyright (c) 2016 someone", b"MIT Licence", b"licensed under",
                     b"from https://github.com/a/b", b"gitlab.com/x"):
            self.assertTrue(FOREIGN_TEXT.search(text), text)

    def test_no_source_names_the_shared_folder_by_a_relative_path(self):
        found = [str(p.relative_to(ROOT)) for p in sources()
                 if SHARED_PATH.encode() in p.read_bytes()]
        self.assertEqual(found, [], "read third-party corpora through WIREBENCH_CORPUS")


if __name__ == "__main__":
    unittest.main()
