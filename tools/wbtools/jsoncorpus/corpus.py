"""The corpus as a whole: assembled, written, checked against a folder, counted
per group, and compared with another corpus laid out the same way."""

import collections
import pathlib
import re

from . import containers, numbers, strings, structure
from .case import GROUPS, LABELS

INDEX = "cases.tsv"
INDEX_HEADER = (
    "# The project's JSON conformance corpus, written by tools/gen_json_corpus.py from\n"
    "# RFC 8259 (sections cited by number) and Unicode's Table 3-7 of well-formed UTF-8.\n"
    "# Do not edit: run the script. y_ must be accepted, n_ rejected, i_ either.\n"
    "# One case a line: file<TAB>reason.\n")

CASE_FILE = re.compile(r"^([yni])_([a-z0-9]+)")
# Group names of other corpora laid out the same way, read as ours.
GROUP_ALIASES = {"incomplete": "structure", "single": "structure", "multidigit": "number"}


def build():
    """Every case, sorted by file name; fails on a repeated name or content."""
    cases = numbers.cases() + strings.cases() + containers.cases() + structure.cases()
    for what, key in (("name", lambda c: c.name), ("content", lambda c: c.data)):
        repeated = [k for k, n in collections.Counter(map(key, cases)).items() if n > 1]
        if repeated:
            raise ValueError(f"cases with the same {what}: {repeated[:5]}")
    for case in cases:
        if case.label not in LABELS or case.group not in GROUPS or "\n" in case.reason:
            raise ValueError(f"malformed case {case.name}")
    return sorted(cases, key=lambda c: c.name)


def index_text(cases):
    """The text of cases.tsv."""
    return INDEX_HEADER + "".join(f"{c.name}\t{c.reason}\n" for c in cases)


def expected_files(cases):
    """{file name: bytes} of the whole folder."""
    files = {c.name: c.data for c in cases}
    files[INDEX] = index_text(cases).encode()
    return files


def case_files(folder):
    """The y_/n_/i_ .json files of a folder: {name: path}."""
    return {p.name: p for p in pathlib.Path(folder).iterdir()
            if p.is_file() and p.suffix == ".json" and CASE_FILE.match(p.name)}


def differences(folder, cases):
    """What differs between folder and the corpus, one line each."""
    folder = pathlib.Path(folder)
    want = expected_files(cases)
    have = case_files(folder) if folder.is_dir() else {}
    if (folder / INDEX).is_file():
        have[INDEX] = folder / INDEX
    lines = [f"missing: {name}" for name in sorted(set(want) - set(have))]
    lines += [f"not generated: {name}" for name in sorted(set(have) - set(want))]
    lines += [f"differs: {name}" for name in sorted(set(want) & set(have))
              if have[name].read_bytes() != want[name]]
    return lines


def write(folder, cases):
    """Writes the corpus into folder and removes case files it no longer has;
    returns the number of files written."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    want = expected_files(cases)
    for name, path in case_files(folder).items():
        if name not in want:
            path.unlink()
    for name, data in want.items():
        (folder / name).write_bytes(data)
    return len(want)


def group_of(name):
    """(label, group) of a case file name, other corpora's groups read as ours."""
    match = CASE_FILE.match(name)
    group = GROUP_ALIASES.get(match.group(2), match.group(2))
    return match.group(1), group if group in GROUPS else "other"


def counts(names):
    """{(label, group): number of cases}."""
    return collections.Counter(group_of(name) for name in names)


def same_content(cases, folder):
    """(their name, our case) for every file of folder whose bytes are one of our cases."""
    ours = {c.data: c for c in cases}
    return [(name, ours[path.read_bytes()]) for name, path in sorted(case_files(folder).items())
            if path.read_bytes() in ours]
