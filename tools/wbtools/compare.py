"""`wirebench compare`: a U-test table over the repetitions plus a per-format summary.

The table does what Google Benchmark's compare.py did for us (a Mann-Whitney U-test per
benchmark on cpu_time and real_time) with stats.mann_whitney_u: compare.py needs scipy, whose
Debian package conflicts with libboost-json1.81-dev.
"""

from . import stats, units

# compare.py's thresholds: no test below 2 repetitions, a warning below 9, significance at 5 %.
UTEST_MIN_REPETITIONS = 2
UTEST_ENOUGH_REPETITIONS = 9
UTEST_ALPHA = 0.05


# Context keys that describe the machine or the build: when one differs, a new/old ratio mixes
# a code change with a machine or build change. (date, load average and the like always differ.)
MACHINE_KEYS = ("host_name", "cpu_model", "mhz_per_cpu", "num_cpus", "caches", "kernel",
                "cpu_pinned", "glibc_tunables")
BUILD_KEYS = ("compiler", "cxx_flags", "wirebench_build_type", "simdjson_implementation",
              "dataset_seed")


def _context_value(key, value):
    if value is None:
        return "(not recorded)"
    if key == "caches" and isinstance(value, list):
        # Google Benchmark's list of {type, level, size, num_sharing}; [] when sysfs hides them.
        shown = [f"L{c.get('level')}{str(c.get('type', '?'))[0].lower()} "
                 f"{units.binary_size(c.get('size', 0))}" for c in value]
        return ", ".join(shown) or "(none reported)"
    return str(value)


def context_differences(old, new):
    """Markdown: the machine and build facts (and library versions) that differ between the two
    files, or that only one file records; "" when none does."""
    libraries = sorted(key for key in set(old.context) | set(new.context)
                       if key.startswith("library."))
    rows = []
    machine = False
    for key in MACHINE_KEYS + BUILD_KEYS + tuple(libraries):
        before, after = old.context.get(key), new.context.get(key)
        if before == after:
            continue
        machine |= key in MACHINE_KEYS and before is not None and after is not None
        rows.append([key, _context_value(key, before), _context_value(key, after)])
    if not rows:
        return ""
    lines = ["## Context differences", ""]
    if machine:
        lines += ["**The two files come from different machines or machine settings**: a "
                  "new/old ratio below mixes the code change with the machine change. Compare "
                  "code on one machine, in runs made one after the other.", ""]
    lines.append(units.table(["context", "old", "new"], rows, "lll"))
    return "\n".join(lines)


def _change(before, after):
    return f"{after / before:.3f}x" if before > 0 else "-"


def utest_table(old, new):
    """Markdown: per benchmark timed in both files, median cpu/real times, new/old and the
    two-sided U-test p-value of each clock ("-" with fewer than 2 repetitions on a side)."""
    rows = []
    fewest = None
    for name, before in old.runs.items():
        after = new.runs.get(name)
        if after is None or before.error or after.error:
            continue
        row = [f"`{name}`", f"{len(before.cpu)}/{len(after.cpu)}"]
        methods = set()
        for clock in ("cpu", "real"):
            old_times, new_times = before.times(clock), after.times(clock)
            old_median, new_median = before.median(clock), after.median(clock)
            row += [units.seconds(old_median), units.seconds(new_median),
                    _change(old_median, new_median)]
            if min(len(old_times), len(new_times)) < UTEST_MIN_REPETITIONS:
                row.append("-")
                continue
            test = stats.mann_whitney_u(old_times, new_times)
            methods.add(test.method)
            row.append(f"{test.p:.4f}" + (" *" if test.p < UTEST_ALPHA else ""))
        row.append("/".join(sorted(methods)) or "-")
        rows.append(row)
        count = min(len(before.cpu), len(after.cpu))
        fewest = count if fewest is None else min(fewest, count)
    if not rows:
        return "## U-test\n\nNo benchmark is timed in both files."
    lines = ["## U-test (two-sided Mann-Whitney, per clock over the repetitions)", "",
             "p-value: the chance of a difference at least this large if the old and new "
             f"times came from one distribution; * marks p < {UTEST_ALPHA}. Method: exact "
             "distribution of U when the smaller sample has at most 8 values and no ties, "
             "else the normal approximation with tie and continuity corrections.", "",
             units.table(["benchmark", "repetitions old/new", "cpu old", "cpu new",
                          "cpu new/old", "cpu p", "real old", "real new", "real new/old",
                          "real p", "method"], rows, "lrrrrrrrrrl")]
    if fewest is not None and fewest < UTEST_ENOUGH_REPETITIONS:
        lines += ["", f"Some benchmarks have only {fewest} repetitions on a side: the U-test "
                      f"is unreliable below {UTEST_ENOUGH_REPETITIONS} (`--repetitions`)."]
    return "\n".join(lines)


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
                      f"{geo:.3f}x. Whether a change is real: the U-test p-values above."]
    for label, names in (("only in the old file", only_old), ("only in the new file", only_new)):
        if names:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            lines.append(f"{len(names)} {label}: {shown}")
    return "\n".join(lines)
