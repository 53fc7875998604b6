"""The published field figures (WCF Data Services, WCF SOAP, Azure Table storage), as data the
report compares against; docs/methodology.md describes them."""

KIB = 1024
MIB = 1024 * 1024

# (format, dataset, rows) -> (published bytes, how the source states it, comparison)
# comparison: "about" means within +-10 % is a match; "over" means the source says "> X".
SIZES = [
    (("atom", "message", 100), 51.2 * KIB, "Atom ~ 51.2 KB (WCF Data Services, 100 Message rows)",
     "about"),
    (("json", "message", 100), 4.4 * KIB, "JSON ~ 4.4 KB (WCF Data Services, 100 Message rows)",
     "about"),
    (("soap", "airport", 101), 31872, "SOAP 31,872 B (WCF, 101 Airport objects)", "about"),
    (("json", "airport", 101), 15862, "JSON 15,862 B (WCF, 101 Airport objects)", "about"),
    (("atom", "science", 1000), 1 * MIB, "Atom > 1 MB per 1,000-row page (Azure Tables)", "over"),
    (("json", "science", 1000), 163 * KIB, "JSON ~ 163 KB per 1,000-row page (Azure Tables)",
     "about"),
]

# Azure Table storage: an 8,100-row subset fetched in 9 paged requests.
AZURE_PAGES = 9
AZURE_SUBSET_ROWS = 8100
AZURE_PAGE_ROWS = 1000
AZURE = {
    # format -> (published bytes per page, published seconds per subset)
    "atom": (1 * MIB, 55.0),
    "json": (163 * KIB, 14.0),
}
# The alternative reading of "1 MB" and "163 KB" (decimal units), shown beside the fit.
AZURE_DECIMAL = {"atom": (1_000_000, 55.0), "json": (163_000, 14.0)}


def verdict(measured, published, comparison):
    """'ok' / 'off by X %' for a measured size against the published figure."""
    if comparison == "over":
        return "ok (> 1 MB)" if measured > published else \
            f"below ({100 * (measured / published - 1):+.1f} %)"
    deviation = measured / published - 1
    return f"ok ({100 * deviation:+.1f} %)" if abs(deviation) <= 0.10 else \
        f"off by {100 * deviation:+.1f} %"
