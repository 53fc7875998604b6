"""Our corpus against another laid out the same way: cases per group, and the
files both hold with the same bytes, by expected outcome and by every
decoder's answer in two conformance matrices (`wirebench conformance --json`)."""

import pathlib

from . import corpus
from .case import GROUPS, LABELS
from ..cli import UserError, read_json


def counts_table(columns):
    """Markdown table of cases per group and label; columns: [(title, file names)]."""
    counted = [(title, corpus.counts(names)) for title, names in columns]
    groups = list(GROUPS) + (["other"] if any(c[(lbl, "other")] for _, c in counted
                                              for lbl in LABELS) else [])
    head = "| group | " + " | ".join(f"{lbl}_ {title}" for lbl in LABELS
                                      for title, _ in counted) + " |"
    lines = [head, "| --- " + "| ---: " * (len(LABELS) * len(counted)) + "|"]
    for group in groups + ["all"]:
        cells = []
        for lbl in LABELS:
            for _, count in counted:
                cells.append(sum(n for (l, g), n in count.items()
                                 if l == lbl and (g == group or group == "all")))
        lines.append(f"| {group} | " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def short_of(ours, theirs):
    """(label, group, ours, theirs) wherever our corpus has fewer cases."""
    mine, other = corpus.counts(ours), corpus.counts(theirs)
    return [(lbl, g, mine[(lbl, g)], n) for (lbl, g), n in sorted(other.items())
            if mine[(lbl, g)] < n]


def _matrix(path):
    data = read_json(path, "the conformance file")
    if not isinstance(data, dict) or "files" not in data or "corpus" not in data:
        raise UserError(f"{path}: not a conformance file; write one with "
                        "`wirebench conformance --json FILE`")
    folder = pathlib.Path(data["corpus"])
    if not folder.is_dir():
        raise UserError(f"{path}: its corpus folder {folder} is not there")
    return folder, {entry["name"]: entry for entry in data["files"]}


def compare_matrices(ours_path, theirs_path):
    """Lines: every pair of files with the same bytes, whether their expected
    outcomes agree, and every decoder whose answers differ between the two."""
    our_dir, ours = _matrix(ours_path)
    their_dir, theirs = _matrix(theirs_path)
    by_bytes = {(our_dir / name).read_bytes(): name for name in ours}
    pairs = [(by_bytes[(their_dir / name).read_bytes()], name) for name in sorted(theirs)
             if (their_dir / name).read_bytes() in by_bytes]
    label_differs = [(o, t) for o, t in pairs if ours[o]["expected"] != theirs[t]["expected"]]
    answers_differ = []
    for o, t in pairs:
        for decoder, answer in ours[o]["parse"].items():
            other = theirs[t]["parse"].get(decoder)
            if other is not None and other != answer:
                answers_differ.append(f"{decoder}: {o} {answer}, {t} {other}")
    lines = [f"{len(pairs)} files of {their_dir} have the bytes of a case of {our_dir}",
             f"expected outcome differs on {len(label_differs)} of them"]
    lines += [f"  {o} ({ours[o]['expected']}) = {t} ({theirs[t]['expected']})"
              for o, t in label_differs]
    lines.append(f"a decoder's answer differs on {len(answers_differ)} of them")
    lines += [f"  {line}" for line in answers_differ]
    return lines, bool(label_differs or answers_differ)
