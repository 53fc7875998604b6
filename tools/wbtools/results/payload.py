"""The answer for a user's own files (`./wirebench bench --payload`, docs/payload.md): per
file, its parsers ranked with the paired intervals the suite computes (holds.ratios), ties
called, each parser's verdict (accepted or rejected, with its error and byte offset, from
<result>-verdict.json; for a short file, what it read, in the canonical form) and the file's size raw and after each compressor.

A payload run's context names each file under "payload.file:NAME." (path, bytes, sha256,
kind, case); its benchmarks are {format}/file:NAME/{bytes}/...
"""

from . import holds
from .. import results
from ..cli import UserError, read_json

_PREFIX = "payload."


def load_verdict(path):
    """The verdict file of `wirebench_cli verdict --json`; UserError when it is not one."""
    data = read_json(path, "the verdict file")
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise UserError(f"{path}: not a verdict file (no 'files' list); write one with "
                        "`wirebench_cli verdict --json FILE KIND:PATH...`")
    return data


def files_of(context):
    """{name: {path, bytes, sha256, kind, case}} of the files a payload run timed."""
    out = {}
    for key, value in (context or {}).items():
        if not key.startswith(_PREFIX + "file:"):
            continue
        name, _, field = key[len(_PREFIX):].rpartition(".")
        out.setdefault(name, {})[field] = value
    return out


def _verdicts_of(verdict, path, op):
    """{library: verdict entry} of one file and op from a verdict file."""
    for entry in (verdict or {}).get("files", []):
        if entry.get("path") == path:
            return {v["library"]: v for v in entry.get("verdicts", []) if v.get("op") == op}
    return {}


def answer(result, verdict=None):
    """Per payload file, in name order: {"name", "case", "path", "bytes", "sha256", "kind",
    "op", "parsers": [{"library", "time", "ratio", "low", "high", "verdict", "outcome",
    "error", "offset", "values", "mark", "peak", "allocs"}] fastest first (rejected ones last, untimed), "fastest":
    [the fastest and every parser tied with it], "sizes": [[codec, bytes]] raw first}."""
    ratios = holds.ratios(result)
    out = []
    for name, info in sorted(files_of(result.context).items()):
        fmt, dataset, rows = (info.get("case", "") + "//").split("/")[:3]
        if not rows.isdigit():
            continue
        runs = result.select(format=fmt, dataset=dataset, rows=int(rows))
        op = "decode" if any(r.name.op == "decode" for r in runs) else "parse-only"
        verdicts = _verdicts_of(verdict, info.get("path"), op)
        parsers = []
        timed = set()
        for run in sorted((r for r in runs if r.name.op == op), key=lambda r: r.figure()):
            entry = ratios.get(run.name.full, {})
            judged = verdicts.get(run.name.library, {})
            timed.add(run.name.library)
            parsers.append({"library": run.name.library, "time": run.figure(),
                            "ratio": entry.get("ratio", 1.0), "low": entry.get("low"),
                            "high": entry.get("high"), "verdict": entry.get("verdict", "fastest"),
                            "outcome": judged.get("verdict", "accepted"),
                            "error": judged.get("error", ""), "offset": judged.get("offset", -1),
                            "values": judged.get("values", ""), "mark": judged.get("mark", ""),
                            # The memory run's figures for one parse (None without that run).
                            "peak": run.memory.get("max_bytes_used"),
                            "allocs": run.memory.get("allocs_per_iter")})
        # Rejected (or crashed) parsers: not timed, still a row.
        failed = {r.name.library: r.error for r in result.failed()
                  if r.name.case == (fmt, dataset, int(rows)) and r.name.op == op}
        for library in sorted((set(verdicts) | set(failed)) - timed):
            judged = verdicts.get(library, {})
            parsers.append({"library": library, "time": None, "ratio": None, "low": None,
                            "high": None, "verdict": "not timed",
                            "outcome": judged.get("verdict", "rejected"),
                            "error": judged.get("error") or failed.get(library, ""),
                            "offset": judged.get("offset", -1), "values": "",
                            "mark": judged.get("mark", ""), "peak": None, "allocs": None})
        fastest = [p["library"] for p in parsers if p["verdict"] in ("fastest", "tied")]
        packed = {run.name.library: int(run.counter("compressed_bytes")) for run in runs
                  if run.name.op == "compress" and run.counter("compressed_bytes") is not None}
        sizes = [["raw", int(rows)]] + [[codec, packed[codec]] for codec in results.CODECS
                                        if codec in packed]
        out.append({"name": name[len("file:"):], "case": f"{dataset}/{rows}", "format": fmt,
                    "path": info.get("path", ""), "bytes": int(rows),
                    "sha256": info.get("sha256", ""), "kind": info.get("kind", ""), "op": op,
                    "parsers": parsers, "fastest": fastest, "sizes": sizes})
    return out


def headline(entry):
    """One line: the fastest parser of a file and who ties with it."""
    if not entry["fastest"]:
        return f"{entry['name']}: no parser accepted it"
    first, ties = entry["fastest"][0], entry["fastest"][1:]
    tied = f", tied with {', '.join(ties)} (their 95 % intervals hold 1)" if ties else \
        " (no other parser's interval reaches it)"
    return f"{entry['name']} ({entry['bytes']:,} bytes, {entry['kind']}): fastest {entry['op']} " \
           f"is {first}{tied}"
