"""Human-readable numbers and Markdown tables, shared by the CLI output and REPORT.md."""

import math


def seconds(value):
    """'12.3 us', '4.56 ms', '1.23 s'; '-' for missing values."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    magnitude = abs(value)
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if magnitude >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns" if magnitude > 0 else "0"


def bandwidth(bits_per_second):
    """'1.55 Mbit/s' and the like."""
    if bits_per_second is None or math.isnan(bits_per_second):
        return "-"
    for scale, unit in ((1e12, "Tbit/s"), (1e9, "Gbit/s"), (1e6, "Mbit/s"), (1e3, "kbit/s")):
        if bits_per_second >= scale:
            return f"{bits_per_second / scale:.3g} {unit}"
    return f"{bits_per_second:.3g} bit/s"


def megabytes_per_second(bytes_per_second):
    if bytes_per_second is None or math.isnan(bytes_per_second):
        return "-"
    return f"{bytes_per_second / 1e6:,.1f}"


def count(value):
    """Integer with thousands separators; '-' when missing."""
    return "-" if value is None else f"{round(value):,}"


def binary_size(value):
    """Bytes in the largest binary unit that keeps a whole number: '48 KiB', '2 MiB', '4 B'."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= scale and value % scale == 0:
            return f"{value // scale} {unit}"
    return f"{value:,} B"


def ratio(value, base):
    """value / base as '1.23x'; '-' when either is missing, base is not positive or the
    quotient is NaN."""
    if value is None or base is None or not base > 0:
        return "-"
    quotient = value / base
    return "-" if math.isnan(quotient) else f"{quotient:.2f}x"


def percent(fraction, digits=1):
    if fraction is None or math.isnan(fraction):
        return "-"
    return f"{100 * fraction:.{digits}f} %"


def table(headers, rows, align=None):
    """A Markdown table; align is a string of 'l'/'r' per column (default: first left)."""
    align = align or "l" + "r" * (len(headers) - 1)
    cells = [[str(cell) for cell in row] for row in rows]
    lines = ["| " + " | ".join(headers) + " |",
             "| " + " | ".join("---:" if a == "r" else "---" for a in align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join(lines)
