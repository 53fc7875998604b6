"""The third-party corpora for the Python tests, found as the C++ tests find
them (tests/test_support.hpp): WIREBENCH_CORPUS names a folder laid out as
corpus/real/, corpus/odata/ and conformance/json/test_parsing/."""

import os
import pathlib


def folder(sub):
    """WIREBENCH_CORPUS/sub, or None when the variable is unset."""
    root = os.environ.get("WIREBENCH_CORPUS")
    return pathlib.Path(root).resolve() / sub if root else None


def skip_line(what, sub):
    """The one line a test prints when it skips for want of the variable."""
    return (f"{what} skipped: set WIREBENCH_CORPUS to a folder with {sub}/ "
            "(.ci/run sets it when the shared corpora sit beside the clone)")
