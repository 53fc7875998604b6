"""`wirebench compare`: Google Benchmark's compare.py U-test table plus a per-format summary."""

import os
import subprocess
import sys

from . import units

COMPARE_PY = "/usr/share/benchmark/compare.py"


def run_compare_py(old_path, new_path, extra_args=(), compare_py=COMPARE_PY):
    """Run compare.py `benchmarks OLD NEW`, its output going straight to ours; return its code."""
    if not os.path.exists(compare_py):
        print(f"wirebench: {compare_py} not found (Debian package libbenchmark-tools): "
              "U-test table skipped", file=sys.stderr)
        return None
    command = ["/usr/bin/python3", compare_py, *extra_args, "benchmarks", old_path, new_path]
    sys.stdout.flush()
    return subprocess.run(command, check=False).returncode


def ratios(old, new, clock="cpu"):
    """[(name, old median, new median, new/old)] for benchmarks present and timed in both."""
    out = []
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        old_time, new_time = before.median(clock), after.median(clock)
        if old_time > 0 and new_time > 0:
            out.append((name, old_time, new_time, new_time / old_time))
    return out


def summary(old, new, clock="cpu", top=3):
    """Markdown: per format, the biggest regressions and improvements by median time ratio."""
    compared = ratios(old, new, clock)
    only_old = sorted(set(old.runs) - set(new.runs))
    only_new = sorted(set(new.runs) - set(old.runs))
    lines = [f"## wirebench summary ({clock}_time medians, new/old)", ""]
    if not compared:
        lines.append("No benchmark is timed in both files.")
    by_format = {}
    for item in compared:
        by_format.setdefault(item[0].split("/", 1)[0], []).append(item)
    rows = []
    for fmt in sorted(by_format):
        items = sorted(by_format[fmt], key=lambda item: item[3])
        worse = [item for item in reversed(items) if item[3] > 1][:top]
        better = [item for item in items if item[3] < 1][:top]
        for kind, chosen in (("regression", worse), ("improvement", better)):
            for name, before, after, ratio in chosen:
                rows.append([fmt, kind, f"`{name}`", units.seconds(before), units.seconds(after),
                             f"{ratio:.3f}x ({100 * (ratio - 1):+.1f} %)"])
        if not worse and not better:
            rows.append([fmt, "unchanged", f"{len(items)} benchmarks", "-", "-", "1.000x"])
    if rows:
        lines.append(units.table(["format", "kind", "benchmark", "old", "new", "new/old"], rows,
                                 "lllrrr"))
    if compared:
        geo = 1.0
        for item in compared:
            geo *= item[3] ** (1 / len(compared))
        lines += ["", f"{len(compared)} benchmarks compared; geometric mean of new/old: "
                      f"{geo:.3f}x. Whether a change is real: compare.py's U-test p-values."]
    for label, names in (("only in the old file", only_old), ("only in the new file", only_new)):
        if names:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            lines.append(f"{len(names)} {label}: {shown}")
    return "\n".join(lines)
