"""The relay-2009 link: per-request latency and bandwidth fitted from the Azure figures.

The published Azure Table storage timings (docs/methodology.md): an 8,100-row subset fetched
as 9 paged requests took 55 s with Atom (~1 MB per page) and 14 s with JSON (~163 KB per
page). Reading each subset as 9 requests of the published page size, each format gives one
linear equation
    pages * latency + pages * page_bytes * 8 / bandwidth = seconds
and the two determine latency and bandwidth. Everything the 2009 client and server did per
request (round trips, server work) lands in the latency; everything proportional to bytes
(the wire, and any per-byte CPU) lands in the bandwidth, which is therefore an effective one.
"""

from . import published


def solve(atom_bytes, atom_seconds, json_bytes, json_seconds, pages=published.AZURE_PAGES):
    """Return (latency seconds per request, bandwidth bit/s) from the two published runs."""
    if atom_bytes == json_bytes:
        raise ValueError("the two payload sizes must differ")
    bandwidth = pages * (atom_bytes - json_bytes) * 8 / (atom_seconds - json_seconds)
    latency = (json_seconds - pages * json_bytes * 8 / bandwidth) / pages
    return latency, bandwidth


def relay_2009(figures=None):
    """The fit for the published figures (binary KB/MB reading by default)."""
    figures = figures or published.AZURE
    (atom_bytes, atom_s), (json_bytes, json_s) = figures["atom"], figures["json"]
    return solve(atom_bytes, atom_s, json_bytes, json_s)


def subset_seconds(page_bytes, latency, bandwidth, pages=published.AZURE_PAGES):
    """Seconds for a subset of `pages` requests of page_bytes each under the fitted link."""
    return pages * latency + pages * page_bytes * 8 / bandwidth
