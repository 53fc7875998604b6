"""`wirebench compare --html`: the comparison of two result files as one self-contained page."""

import os

from .. import compare
from . import build, compare_data

def default_path(old_path, new_path):
    """In the new result's report folder (beside NEW.json, its name without .json), named
    after the baseline: compare-<old name>.html."""
    old_name = os.path.splitext(os.path.basename(old_path))[0]
    return os.path.join(os.path.splitext(os.path.abspath(new_path))[0],
                        f"compare-{old_name}.html")


def write(old, new, path, clock="cpu", min_change=compare.MIN_CHANGE):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    data = compare_data.build(old, new, clock, min_change)
    title = f"{data['old']} -> {data['new']}"
    return build.write(path, data, title, app="compare.js", template="compare.html")
