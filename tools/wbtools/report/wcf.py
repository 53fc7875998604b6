"""The "WCF JSON through the infoset" section: what the JSON<->XML infoset detour costs.

The published WCF measurement (docs/methodology.md) found SOAP 20-25 % faster than WCF JSON at
half the bytes, because DataContractJsonSerializer reads and writes an XML infoset. For each
wcfjson payload in the file this compares every decode pairing "{json}+{xml}" with the SOAP
decoder on the same XML library's DOM and with the OData JSON decoder of the same JSON library
(all reading the reference writer's payload, in the same run), and the infoset's size with the
SOAP body.
"""

import statistics

from ..results import labels
from .. import units

#The kind of parse a pairing 's halves are compared with (the first item of a decoder' s labels).
SOAP_DOM = ("DOM",)
JSON_READER = ("SAX", "on-demand")


def _same_library(what, fmt, library, kinds):
    """The decoder of fmt by the pairing half's library whose labels open with one of kinds
    (the shortest token of those: the library's plain mode), or "" when the file has none.
    Found through the labels, so that no library is named outside the registry."""
    found = [name for entry_fmt, role, name, text in what.entries()
             if entry_fmt == fmt and role == "decode" and name.startswith(library + "-")
             and text.split(",")[0].split(" (")[0] in kinds]
    return min(found, key=lambda name: (len(name), name)) if found else ""


def _decode_time(result, fmt, dataset, rows, library):
    """Median time of a decoder on the reference writer's payload (else on any writer's)."""
    runs = result.select(format=fmt, dataset=dataset, rows=rows, op="decode")
    runs = [run for run in runs if run.name.library == library]
    preferred = [run for run in runs if run.name.source == "reference"]
    runs = preferred or runs
    return statistics.median(run.median() for run in runs) if runs else None


def _ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def section(result):
    what = labels.of(result)
    rows, cells = [], []
    best_lines = []
    for fmt, dataset, count in result.cases():
        if fmt != "wcfjson":
            continue
        pairings = sorted({run.name.library for run in result.select(
            format=fmt, dataset=dataset, rows=count, op="decode") if "+" in run.name.library})
        timed = []
        for pairing in pairings:
            json_lib, xml_lib = pairing.split("+", 1)
            wcf = _decode_time(result, fmt, dataset, count, pairing)
            soap = _decode_time(result, "soap", dataset, count,
                                _same_library(what, "soap", xml_lib, SOAP_DOM))
            odata = _decode_time(result, "json", dataset, count,
                                 _same_library(what, "json", json_lib, JSON_READER))
            if wcf is None:
                continue
            timed.append((wcf, pairing, soap, odata))
            cells.append(what.get(fmt, "decode", pairing))
            rows.append([f"{dataset}/{count}", pairing, units.seconds(wcf),
                         units.seconds(soap) if soap else "-", _ratio(wcf, soap),
                         units.seconds(odata) if odata else "-", _ratio(wcf, odata)])
        if timed:
            wcf, pairing, soap, odata = min(timed)
            best_lines.append(
                f"- **{dataset}/{count}**: best pairing `{pairing}` "
                f"({units.seconds(wcf)}): {_ratio(wcf, soap)} x the SOAP decode on the same XML "
                f"DOM, {_ratio(wcf, odata)} x the OData JSON decode with the same JSON library.")
        infoset = [run.counter("infoset_bytes") for run in result.select(
            format=fmt, dataset=dataset, rows=count, op="encode")]
        infoset = [value for value in infoset if value]
        soap_runs = [run for run in result.select(format="soap", dataset=dataset, rows=count,
                                                  op="encode") if run.name.library == "reference"]
        wire = soap_runs[0].counter("wire_bytes") if soap_runs else None
        if infoset and wire:
            best_lines.append(
                f"  infoset {units.count(infoset[0])} B against the SOAP payload's "
                f"{units.count(wire)} B: {infoset[0] / wire - 1:+.0%} (published: about +50 %).")
    if not rows:
        return ""
    return ("## WCF JSON through the infoset\n\nDecode time of each wcfjson pairing "
            "(JSON reader + XML DOM, then the SOAP binder) against the SOAP decoder on the same "
            "XML library's DOM and the OData JSON decoder with the same JSON library (SAX / "
            "On-Demand), all on the reference writer's payload of the same run. The published "
            "WCF figure: SOAP 20-25 % faster than WCF JSON.\n\n" + "\n".join(best_lines) +
            "\n\n" + labels.table(what, ["payload", "pairing", "wcfjson decode", "soap (same DOM)",
                                         "ratio", "json (same reader)", "ratio"], rows,
                                  "llrrrrr", 2, cells) + "\n")
