"""The report's charts (matplotlib, Agg backend: no display needed)."""

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from . import model, units  # noqa: E402

_PARTS = (("encode", "encode"), ("compress", "compress"), ("wire", "wire"),
          ("decompress", "decompress"), ("decode", "decode"), ("hops_cpu", "middleware CPU"))
_COLORS = {"encode": "#4c72b0", "compress": "#8172b2", "wire": "#c44e52",
           "decompress": "#937860", "decode": "#55a868", "hops_cpu": "#ccb974"}


def _label(p):
    suffix = "" if p.compression == "none" else f" +{p.compression}"
    return f"{p.format} {p.serializer}->{p.parser or '(no decoder)'}{suffix}"


def stacked(pairings, links, dataset, rows, path):
    """Stacked horizontal bars per link: the fastest pairing of each format and compression."""
    columns = min(3, len(links))
    grid_rows = -(-len(links) // columns)
    figure, axes = plt.subplots(grid_rows, columns, figsize=(5.2 * columns, 2.6 * grid_rows + 0.8),
                                squeeze=False)
    flat = [axis for row in axes for axis in row]
    for axis in flat[len(links):]:
        axis.set_visible(False)
    for axis, link in zip(flat, links):
        best = model.best_per_format(pairings.of_case(dataset, rows), link)
        labels = [_label(p) for p, _ in best]
        left = [0.0] * len(best)
        for key, title in _PARTS:
            widths = [parts[key] * 1e3 for _, parts in best]
            if not any(widths):
                continue
            axis.barh(labels, widths, left=left, color=_COLORS[key], label=title)
            left = [a + b for a, b in zip(left, widths)]
        axis.set_title(f"{link.name} (total {units.seconds(best[0][1]['total'])} best)"
                       if best else link.name, fontsize=9)
        axis.set_xlabel("ms per call", fontsize=8)
        axis.tick_params(labelsize=7)
        axis.invert_yaxis()
    legend = {}
    for axis in flat:
        for handle, name in zip(*axis.get_legend_handles_labels()):
            legend.setdefault(name, handle)
    figure.legend(list(legend.values()), list(legend), loc="lower center", ncol=len(legend),
                  fontsize=8)
    figure.suptitle(f"{dataset}, {rows} rows: where one call's time goes (fastest pairing per "
                    "format and compression)", fontsize=10)
    figure.tight_layout(rect=(0, 0.06, 1, 0.95))
    figure.savefig(path, dpi=100)
    plt.close(figure)


def crossover(pairings, link, dataset, rows, path, links=(), low=1e5, high=1e11, points=121):
    """End-to-end time against bandwidth (log x) at link's RTT and knobs, per format's best
    pairing on that link; the dashed line is its CPU time, the dot where wire = CPU."""
    bandwidths = [low * (high / low) ** (i / (points - 1)) for i in range(points)]
    figure, axis = plt.subplots(figsize=(7, 4.2))
    best = model.best_per_format(pairings.of_case(dataset, rows), link)
    for index, (p, parts) in enumerate(best):
        color = f"C{index % 10}"
        totals = [model.call(p, link, bandwidth)["total"] * 1e3 for bandwidth in bandwidths]
        axis.plot(bandwidths, totals, color=color, label=_label(p))
        axis.axhline(parts["cpu"] * 1e3, color=color, linestyle="--", linewidth=0.8)
        point, _ = model.crossover(p, link, low, high)
        if point is not None and low < point < high:
            axis.plot([point], [2 * model.call(p, link, point)["cpu"] * 1e3], "o", color=color)
    for other in links:  # where the profiles sit on the bandwidth axis
        if low <= other.bandwidth_bps <= high:
            axis.axvline(other.bandwidth_bps, color="grey", linestyle=":", linewidth=0.8)
            axis.annotate(other.name, (other.bandwidth_bps, 0.99), xycoords=("data", "axes fraction"),
                          rotation=90, va="top", ha="right", fontsize=6, color="grey")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("bandwidth (bit/s)")
    axis.set_ylabel("ms per call")
    axis.set_title(f"{dataset}, {rows} rows at RTT {link.rtt_s * 1e3:g} ms ({link.name}): "
                   "total (solid), CPU (dashed), wire = CPU (dot)", fontsize=9)
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def draw_all(pairings, links, chart_link, out_dir):
    """Draw every chart; return [(title, file name)] for REPORT.md."""
    names = []
    for dataset, rows in pairings.cases():
        name = f"time-split-{dataset}-{rows}.png"
        stacked(pairings, links, dataset, rows, os.path.join(out_dir, name))
        names.append((f"{dataset} {rows}: time split per link", name))
        name = f"bandwidth-{dataset}-{rows}.png"
        crossover(pairings, chart_link, dataset, rows, os.path.join(out_dir, name), links)
        names.append((f"{dataset} {rows}: time against bandwidth", name))
    return names
