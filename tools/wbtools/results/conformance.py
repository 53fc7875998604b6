"""The JSON conformance matrix of `wirebench conformance --json OUT` in REPORT.md.

The file holds, per JSON decoder, how its parse_only answered every file of a conformance
corpus (accepted, rejected or crashed) and whether decode() rejected every n_ file. The report shows
the summary per decoder and the files where a decoder departs from the expected outcome; the
whole matrix stays in the file.
"""


from . import labels
from .. import units
from ..cli import UserError, read_json

_MARK = {"accepted": "A", "rejected": "r", "crashed": "CRASH"}


def load(path):
    """The matrix as a dict; UserError (one line, no traceback) when it cannot be used."""
    data = read_json(path, "the conformance file")
    if not isinstance(data, dict) or not isinstance(data.get("decoders"), list) \
            or not isinstance(data.get("files"), list):
        raise UserError(f"{path}: not a conformance file (no 'decoders' and 'files' lists); "
                        "write one with `wirebench conformance --json FILE`")
    return data


def corpus_name(data):
    """What the matrix ran over: the label `wirebench conformance` writes; files written
    before it had one ran over JSONTestSuite's test_parsing."""
    return data.get("corpus_label") or "JSONTestSuite's test_parsing"


def _departs(entry, library):
    outcome = entry["parse"].get(library)
    expected = entry.get("expected")
    return (outcome == "crashed" or (expected == "accept" and outcome != "accepted")
            or (expected == "reject" and outcome != "rejected")
            or entry.get("decode", {}).get(library, "rejected") != "rejected")


def section(data, what=None):
    """The report section, or "" without a matrix; what (labels.Labels of the result) adds what
    each decoder does."""
    if not data:
        return ""
    decoders = data["decoders"]
    libraries = [d["library"] for d in decoders]
    rows = [[d["library"], f"{d['y_accepted']}/{d['y_total']}",
             f"{d['n_rejected']}/{d['n_total']}", f"{d['i_accepted']}/{d['i_total']}",
             d["crashed"], f"{d['decode_n_rejected']}/{d['n_total']}"] for d in decoders]
    text = ["## JSON conformance\n",
            f"Every JSON decoder's parse-only over the {len(data['files'])} files of "
            f"{corpus_name(data)} (`wirebench conformance`), each parse in its own "
            "process: y_ files must be accepted, n_ files rejected, i_ files may go either way. "
            "The last column is our full decode (parse + bind into the model), which must "
            "reject every n_ file whatever the parser says.\n",
            labels.table(what, ["decoder", "y_ accepted", "n_ rejected", "i_ accepted",
                                "crashes", "decode() rejects n_"], rows, "lrrrrr", 1,
                         [what.get("json", "decode", lib) for lib in libraries] if what else [])
            + "\n"]
    departing = [entry for entry in data["files"]
                 if any(_departs(entry, library) for library in libraries)]
    if departing:
        text.append("Files where some decoder departs from the expected outcome (A accepted, "
                    "r rejected; a decode() that accepts an n_ file is marked \"decode A\"):\n")
        cells = []
        for entry in departing:
            row = [f"`{entry['name']}`"]
            for library in libraries:
                mark = _MARK.get(entry["parse"].get(library), "?")
                decoded = entry.get("decode", {}).get(library)
                if decoded and decoded != "rejected":
                    mark += f", decode {_MARK.get(decoded, '?')}"
                row.append(f"**{mark}**" if _departs(entry, library) else mark)
            cells.append(row)
        text.append(units.table(["file"] + libraries, cells, "l" + "c" * len(libraries)) + "\n")
    else:
        text.append("Every decoder gives the expected answer on every y_ and n_ file.\n")
    return "\n".join(text)
