"""Short tags for the codec labels: a few words a table row can carry, the full text on demand.

A label is the registry's "what it does" text (labels.py), items joined by ", " with
parenthesised detail: "DOM, in situ (in a copy of the payload), no UTF-8 check, ...". Its
tag is the API (first item, without its detail), where the values live when the label says
(in situ, copying, no tree), and "no UTF-8 check" when the decoder makes none: the three
facts a reader weighs first. A label of a new format or library gets a tag by the same rule.
"""

import re

# Second items that say where a decoder's values live: kept in the tag.
_STORAGE = ("in situ", "copying", "no tree")
# Items that mark a decoder that passes bad input through: kept in the tag as they are.
_WARNINGS = ("no UTF-8 check",)
# An encoder's kind, in one word.
_SHORT = {"streaming writer": "streaming", "tree then serialized": "tree"}


def items(text):
    """The label's items: split at the commas outside parentheses."""
    out, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            out.append(text[start:at].strip())
            start = at + 1
    out.append(text[start:].strip())
    return [item for item in out if item]


def _bare(item):
    """An item without its parenthesised detail (also one the label cut short)."""
    return re.sub(r"\s*\(.*$", "", item).strip()


def tag(text):
    """The short tag of one label, or "" for none."""
    if not text:
        return ""
    parts = items(text)
    first = _bare(parts[0])
    out = [_SHORT.get(first, first)]
    if len(parts) > 1 and _bare(parts[1]) in _STORAGE:
        out.append(_bare(parts[1]))
    out += [item for item in parts[2:] if item in _WARNINGS]
    return ", ".join(out)


def of_labels(by_key):
    """{label key: tag} for every label of a result file (labels.Labels.by_key)."""
    return {key: tag(text) for key, text in by_key.items()}
