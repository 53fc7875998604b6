"""What each codec does: the registry's labels, as the result file's context carries them.

wirebench_bench writes one context entry per codec, router and accessor of codecs/registry.def,
  codec.{format}.{encode|decode|route|access}.{library} = "DOM, copying, validates UTF-8, ..."
(docs/methodology.md, "What each codec does"). The report shows them beside every row that
names a codec. A result file written before the entries existed has none: the sections then
show no labels column, and a codec missing from the entries gets "-".
"""

from .. import units

PREFIX = "codec."
HEADER = "what it does"

# The registry role of each benchmark operation that names a codec; the others (compress,
# decompress, the memcpy and byte-scan limits) name none.
ROLE_OF_OP = {"encode": "encode", "decode": "decode", "parse-only": "decode",
              "decode-new-parser": "decode", "decode-scaling": "decode",
              "encode-scaling": "encode", "route": "route",
              "access": "access", "access-unverified": "access"}


class Labels:
    """The codec.* context entries of one result file."""

    def __init__(self, context):
        self.by_key = {key[len(PREFIX):]: value for key, value in (context or {}).items()
                       if key.startswith(PREFIX) and isinstance(value, str)}

    def __bool__(self):
        return bool(self.by_key)

    def get(self, fmt, role, library):
        """The labels of one codec, or None."""
        return self.by_key.get(f"{fmt}.{role}.{library}")

    def of_name(self, name):
        """The labels of the codec a results.BenchName names, or None."""
        role = ROLE_OF_OP.get(name.op)
        return self.get(name.format, role, name.library) if role else None

    def cell(self, text):
        return text if text else "-"

    def entries(self):
        """[(format, role, library, labels)] in the file's order."""
        out = []
        for key, value in self.by_key.items():
            fmt, role, library = key.split(".", 2) if key.count(".") >= 2 else (key, "", "")
            out.append((fmt, role, library, value))
        return out


def of(result):
    return Labels(getattr(result, "context", None))


def table(labels, headers, rows, align, index, cells):
    """units.table with a "what it does" column at index holding cells (one per row), or
    without it when the file carries no labels."""
    if not labels:
        return units.table(headers, rows, align)
    headers = headers[:index] + [HEADER] + headers[index:]
    align = (align or "l" + "r" * (len(headers) - 2))
    align = align[:index] + "l" + align[index:]
    rows = [row[:index] + [labels.cell(cell)] + row[index:] for row, cell in zip(rows, cells)]
    return units.table(headers, rows, align)


_ROLE_ORDER = {"encode": 0, "decode": 1, "route": 2}


def section(result):
    """REPORT.md's list of every codec the file's benchmarks name, with its labels; "" when
    the file carries none."""
    labels = of(result)
    if not labels:
        return ""
    named = set()
    for run in result.runs.values():
        role = ROLE_OF_OP.get(run.name.op)
        if role:
            named.add((run.name.format, role, run.name.library))
    rows = [[fmt, role, library, text] for fmt, role, library, text in labels.entries()
            if (fmt, role, library) in named]
    if not rows:
        return ""
    rows.sort(key=lambda row: (row[0], _ROLE_ORDER.get(row[1], 3), row[2]))
    return ("## What each codec does\n\nFrom the registry (codecs/registry.def), as the result "
            "file's context records it: a decoder's API (DOM, SAX, pull, on-demand), where its "
            "values live (in situ, copying, no tree), whether it validates UTF-8 and what else "
            "it does or does not check, and for JSON whether its doubles are exact; an "
            "encoder's kind (streaming writer, or tree then serialized); a router's way of "
            "answering. The same text stands beside each codec's rows below; "
            "docs/methodology.md explains each label.\n\n" +
            units.table(["format", "role", "codec", HEADER], rows, "llll") + "\n")
