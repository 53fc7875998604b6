"""The report's charts as SVG files (wbtools.report.svg: no plotting library needed)."""

import os

from ..transfer import calls
from . import svg
from .. import units

_PARTS = (("encode", "encode"), ("compress", "compress"), ("wire", "wire"),
          ("decompress", "decompress"), ("decode", "decode"), ("hops_cpu", "middleware CPU"))
_COLORS = {"encode": "#4c72b0", "compress": "#8172b2", "wire": "#c44e52",
           "decompress": "#937860", "decode": "#55a868", "hops_cpu": "#ccb974"}
# One colour per pairing on the bandwidth chart (matplotlib's tab10, repeating after ten).
_LINE_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                "#7f7f7f", "#bcbd22", "#17becf")
_ROW = 14  # pixels per bar
_FONT = 9


def _label(p):
    suffix = "" if p.compression == "none" else f" +{p.compression}"
    return f"{p.format} {p.serializer}->{p.parser or '(no decoder)'}{suffix}"


def stacked(pairings, links, dataset, rows, path):
    """Stacked horizontal bars per link: the fastest call of each format, fastest on top, one
    panel per link in a grid of up to three columns. One bar per format and compression
    made each panel of a whole-suite run a hundred bars (a 500 KB file) that no one reads
    at that size."""
    panels = [(link, calls.fastest_per_format(pairings.of_case(dataset, rows), link))
              for link in links]
    labels = [_label(p) for _, best in panels for p, _ in best]
    label_width = max((svg.text_width(label, _FONT) for label in labels), default=0) + 10
    plot_width, gap = 300, 30
    bars = max((len(best) for _, best in panels), default=0)
    panel_height = 24 + bars * _ROW + 44  # title, bars, x ticks and label
    columns = min(3, len(links))
    grid_rows = -(-len(links) // columns)
    width = gap + columns * (label_width + plot_width + gap)
    used = [key for key, _ in _PARTS if any(parts[key] for _, best in panels for _, parts in best)]
    height = 40 + grid_rows * panel_height + 40
    doc = svg.Document(width, height)
    doc.text(width / 2, 18, f"{dataset}, {rows} rows: where one call's time goes (fastest "
             "call of each format)", 12, "middle")
    for index, (link, best) in enumerate(panels):
        left = gap + (index % columns) * (label_width + plot_width + gap) + label_width
        top = 40 + (index // columns) * panel_height + 24
        longest = max((parts["total"] for _, parts in best), default=0) * 1e3
        x = svg.LinearScale(0, longest * 1.05 or 1, left, left + plot_width)
        y = svg.LinearScale(0, max(bars, 1), top, top + max(bars, 1) * _ROW)
        doc.text(left + plot_width / 2, top - 10, f"{link.name} (total "
                 f"{units.seconds(best[0][1]['total'])} best)" if best else link.name,
                 _FONT + 1, "middle")
        for row, (p, parts) in enumerate(best):
            doc.text(left - 6, y(row + 0.5), _label(p), _FONT, "end")
            start = 0.0
            for key, title in _PARTS:
                value = parts[key] * 1e3
                if value > 0:
                    doc.rect(x(start), y(row) + 2, x(start + value) - x(start), _ROW - 4,
                             _COLORS[key], f"{_label(p)}: {title} {units.seconds(value / 1e3)}")
                start += value
        svg.axes(doc, x, y, "ms per call", size=_FONT - 1, y_ticks=False)
    entries = [(title, _COLORS[key], "bar") for key, title in _PARTS if key in used]
    if entries:
        column = max(svg.text_width(title, _FONT) for title, _, _ in entries) + 40
        svg.legend(doc, (width - column * len(entries)) / 2, height - 30, entries, _FONT,
                   len(entries), column)
    doc.write(path)


def crossover(pairings, link, dataset, rows, path, links=(), low=1e5, high=1e11, points=121):
    """End-to-end time against bandwidth (log x, log y) at link's RTT and knobs, per format's
    best pairing on that link; the dashed line is its CPU time, the dot where wire = CPU."""
    bandwidths = [low * (high / low) ** (i / (points - 1)) for i in range(points)]
    best = calls.best_per_format(pairings.of_case(dataset, rows), link)
    series = []
    for index, (p, parts) in enumerate(best):
        totals = [calls.call(p, link, bandwidth)["total"] * 1e3 for bandwidth in bandwidths]
        point, _ = calls.crossover(p, link, low, high)
        # At the crossover wire = CPU, so the total there is twice the CPU time.
        dot = ((point, 2 * calls.call(p, link, point)["cpu"] * 1e3)
               if point is not None and low < point < high else None)
        series.append((_label(p), _LINE_COLORS[index % 10], totals, parts["cpu"] * 1e3, dot))
    values = [v for _, _, totals, cpu, dot in series
              for v in totals + [cpu] + ([dot[1]] if dot else []) if v > 0]
    legend_width = max((svg.text_width(s[0], _FONT - 1) for s in series), default=0) + 40
    left, top, plot_width, plot_height = 70, 40, 560, 360
    doc = svg.Document(left + plot_width + 20 + legend_width, top + plot_height + 50)
    x = svg.LogScale(low, high, left, left + plot_width)
    y = svg.LogScale(*(svg.decades(min(values), max(values)) if values else (0.1, 1)),
                     top + plot_height, top)
    doc.text(left + plot_width / 2, 18, f"{dataset}, {rows} rows at RTT {link.rtt_s * 1e3:g} ms "
             f"({link.name}): total (solid), CPU (dashed), wire = CPU (dot)", 11, "middle")
    svg.axes(doc, x, y, "bandwidth (bit/s)", "ms per call", _FONT, grid=True)
    at = {}  # where the profiles sit on the bandwidth axis; profiles of one bandwidth share a line
    for other in links:
        if low <= other.bandwidth_bps <= high:
            at.setdefault(other.bandwidth_bps, []).append(other.name)
    for bandwidth, names in at.items():
        position = x(bandwidth)
        doc.line(position, top, position, top + plot_height, "grey", 0.8, "1,3")
        doc.text(position - 3, top + 4, ", ".join(names), _FONT - 2, "end", "grey", rotate=-90,
                 align="baseline")
    for label, color, totals, cpu, dot in series:
        doc.line(left, y(cpu), left + plot_width, y(cpu), color, 0.8, "5,3")
        doc.polyline([(x(b), y(t)) for b, t in zip(bandwidths, totals)], color)
        if dot:
            doc.circle(x(dot[0]), y(dot[1]), 4, color)
    svg.legend(doc, left + plot_width + 20, top, [(s[0], s[1], "line") for s in series],
               _FONT - 1)
    doc.write(path)


def draw_all(pairings, links, chart_link, out_dir):
    """Draw every chart; return [(title, file name)] for REPORT.md."""
    names = []
    for dataset, rows in pairings.cases():
        name = f"time-split-{dataset}-{rows}.svg"
        stacked(pairings, links, dataset, rows, os.path.join(out_dir, name))
        names.append((f"{dataset} {rows}: time split per link", name))
        name = f"bandwidth-{dataset}-{rows}.svg"
        crossover(pairings, chart_link, dataset, rows, os.path.join(out_dir, name), links)
        names.append((f"{dataset} {rows}: time against bandwidth", name))
    return names
