"""A user's feed in other formats (`./wirebench bench --payload FEED --as-formats`,
docs/payload.md "As other formats"): per feed, every format that carried its rows with the
size of its payload raw and after each compressor and the encode and decode time of each
library with its 95 % interval, the formats that could not carry them and why, and the
answer: each format against the file as it came (its size, and its fastest decode), the
decode ratio paired round by round (both are competitors of the file's unit of rounds).

The run's context says, per feed, under "as_formats.file:NAME.": rows, rows_from, carried,
not_carried ("FORMAT: why; ..."), not_carried_yet ("FORMAT, ..."); the benchmarks are
{format}/file:NAME/{bytes}/encode/{library} and .../decode/{library}/from:{library}.
"""

from . import paired
from .. import results, units

_PREFIX = "as_formats."


def _context_of(context):
    """{file name: {field: value}} of the as_formats.* keys."""
    out = {}
    for key, value in (context or {}).items():
        if key.startswith(_PREFIX + "file:"):
            name, _, field = key[len(_PREFIX):].rpartition(".")
            out.setdefault(name, {})[field] = value
    return out


def _split(text, sep):
    return [item.strip() for item in (text or "").split(sep) if item.strip()]


def _timing(run):
    """{"library", "time", "low", "high"} of a timed run: its figure and 95 % interval."""
    interval = run.figure_interval()
    return {"library": run.name.library, "time": run.figure(),
            "low": interval.low if interval else None, "high": interval.high if interval else None}


def _ratio(slow, fast):
    """(point, low, high) of slow's time over fast's, paired round by round when both ran in
    rounds, else the ratio of their figures with no interval."""
    both = paired.ratio_of(slow.ratios["cpu"], fast.ratios["cpu"])
    if both:
        point, interval = both
        return point, interval.low if interval else None, interval.high if interval else None
    return slow.figure() / fast.figure(), None, None


def _sizes(run):
    return {codec: int(run.counter(f"{codec}_bytes")) for codec in results.CODECS
            if run.counter(f"{codec}_bytes") is not None}


def table(result):
    """Per feed that went through --as-formats, in name order: {"name", "format" (the
    file's), "bytes", "rows", "rows_from", "file_sizes" {codec: bytes}, "file_decode" (the
    file's fastest decode, a _timing), "formats": [{"format", "bytes", "sizes", "encoders":
    [_timing + "bytes", "sizes"] fastest first, "decoders": [_timing] fastest first,
    "smaller" (file bytes / format bytes), "decode_ratio" (point, low, high: the file's
    fastest decode over the format's, > 1 when the format decodes faster), "failed": [[name,
    why]]}] smallest first, "not_carried": [[format, why]], "not_carried_yet": [format],
    "answer": answer()'s sentence}."""
    out = []
    for name, info in sorted(_context_of(result.context).items()):
        file_runs = [r for r in result.runs.values()
                     if r.name.dataset == name and not r.error]
        case = result.context.get(f"payload.{name}.case", "")
        fmt, _, rows = (case + "//").split("/")[:3]
        if not rows.isdigit():
            continue
        size = int(rows)
        file_decodes = sorted((r for r in file_runs if r.name.format == fmt
                               and r.name.op == "decode" and r.name.source == "file"),
                              key=lambda r: r.figure())
        compress = {r.name.library: int(r.counter("compressed_bytes")) for r in file_runs
                    if r.name.format == fmt and r.name.op == "compress"
                    and r.counter("compressed_bytes") is not None}
        entry = {"name": name[len("file:"):], "format": fmt, "bytes": size,
                 "rows": int(info.get("rows", "0") or 0), "rows_from": info.get("rows_from", ""),
                 "file_sizes": compress,
                 "file_decode": _timing(file_decodes[0]) if file_decodes else None,
                 "formats": [], "not_carried": [],
                 "not_carried_yet": _split(info.get("not_carried_yet"), ",")}
        for item in _split(info.get("not_carried"), ";"):
            format_, _, why = item.partition(": ")
            entry["not_carried"].append([format_, why])
        for format_ in _split(info.get("carried"), ";"):
            runs = [r for r in file_runs if r.name.format == format_]
            encoders = sorted((r for r in runs if r.name.op == "encode"), key=lambda r: r.figure())
            decoders = sorted((r for r in runs if r.name.op == "decode"), key=lambda r: r.figure())
            failed = [[r.name.full, r.error] for r in result.failed()
                      if r.name.format == format_ and r.name.dataset == name]
            if not encoders:
                entry["not_carried"].append(
                    [format_, failed[0][1] if failed else "no encoder timed"])
                continue
            smallest = min(encoders, key=lambda r: r.counter("wire_bytes") or 0)
            wire = int(smallest.counter("wire_bytes") or 0)
            row = {"format": format_, "bytes": wire, "sizes": _sizes(smallest),
                   "encoders": [{**_timing(r), "bytes": int(r.counter("wire_bytes") or 0),
                                 "sizes": _sizes(r)} for r in encoders],
                   "decoders": [_timing(r) for r in decoders],
                   "smaller": size / wire if wire else None, "decode_ratio": None,
                   "failed": failed}
            if decoders and file_decodes:
                row["decode_ratio"] = _ratio(file_decodes[0], decoders[0])
            entry["formats"].append(row)
        entry["formats"].sort(key=lambda f: f["bytes"])
        entry["answer"] = answer(entry)
        out.append(entry)
    return out


def answer(entry):
    """One sentence per feed, as measured: the smallest format against the file, and the
    format whose fastest decoder is fastest ("your feed as protobuf is 6.1x smaller and
    decodes 4.2x faster [3.9, 4.6]")."""
    if not entry["formats"]:
        return f"{entry['name']}: no other format carried its rows"
    parts = []
    smallest = entry["formats"][0]
    timed = [f for f in entry["formats"] if f["decode_ratio"]]
    fastest = max(timed, key=lambda f: f["decode_ratio"][0]) if timed else None
    for row in [smallest] + ([fastest] if fastest and fastest is not smallest else []):
        text = f"as {row['format']} is {_times(row['smaller'], 'smaller', 'larger')}"
        if row["decode_ratio"]:
            point, low, high = row["decode_ratio"]
            text += f" and decodes {_times(point, 'faster', 'slower')}"
            if low is not None:
                text += f" [{_interval(low, high, point >= 1)}]"
        parts.append(text)
    return f"your feed ({entry['name']}, {entry['bytes']:,} bytes of {entry['format']}) " + \
        "; ".join(parts)


def _times(ratio, more, less):
    if ratio is None:
        return "of unknown size"
    return f"{ratio:.2f}x {more}" if ratio >= 1 else f"{1 / ratio:.2f}x {less}"


def _interval(low, high, faster):
    """A ratio's interval in the direction the sentence reads it."""
    if faster:
        return f"{low:.2f}, {high:.2f}"
    return f"{1 / high:.2f}, {1 / low:.2f}"


def markdown(entries):
    """REPORT.md's section for the feeds of a run with --as-formats ("" without any)."""
    if not entries:
        return ""
    parts = ["## Your feed as other formats", "",
             "Each feed's rows encoded in every other format that carries them, read back and "
             "checked equal before timing; per format its fastest encoder and decoder with "
             "their 95 % intervals, its size raw and after each compressor, against the file "
             "as it came (docs/payload.md, \"As other formats\").", ""]
    for entry in entries:
        rows = []
        for f in entry["formats"]:
            enc, dec = f["encoders"][0], (f["decoders"] or [None])[0]
            ratio = f["decode_ratio"]
            rows.append([f["format"], f"{f['bytes']:,}",
                         ", ".join(f"{c} {b:,}" for c, b in f["sizes"].items()),
                         f"{enc['library']} {_timed(enc)}",
                         f"{dec['library']} {_timed(dec)}" if dec else "-",
                         _times(f["smaller"], "smaller", "larger"),
                         _times(ratio[0], "faster", "slower") if ratio else "-"])
        parts += [f"**{entry['answer']}.**", "", units.table(
            ["format", "bytes", "compressed", "fastest encode [95 %]", "fastest decode [95 %]",
             "size vs file", "decode vs file"], rows, "lrlllrr"), ""]
        for format_, why in entry["not_carried"]:
            parts.append(f"- {format_}: not carried: {why}")
        if entry["not_carried_yet"]:
            parts.append("- not carried yet: " + ", ".join(entry["not_carried_yet"]))
        parts.append("")
    return "\n".join(parts)


def _timed(t):
    if t["low"] is None:
        return units.seconds(t["time"])
    return f"{units.seconds(t['time'])} [{units.seconds(t['low'])}, {units.seconds(t['high'])}]"
