"""The result's context as rows a person reads: the machine and build first, then the library
versions, then the rest; structured entries (the machine's state around the run, the bands of
the run, the memory run) as sentences, not as the JSON the file holds."""

from ..results import labels

CONTEXT_FIRST = ("date", "host_name", "cpu_model", "kernel", "num_cpus", "mhz_per_cpu",
                 "cpu_pinned", "caches", "compiler", "cxx_flags", "wirebench_build_type",
                 "library_build_type", "simdjson_implementation",
                 "simdjson_ondemand_implementation", "git_commit", "dataset_seed", "run_kind",
                 "run_design", "rounds", "racing", "pairing_matrix", "glibc_tunables",
                 "allocation_counter", "note")


def _number(value):
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _bytes(value):
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.0f} B"


def snapshot(state):
    """One machine_state snapshot (machine_state.py) as a sentence."""
    parts = []
    cpus = state.get("cpus") or {}
    if cpus:
        parts.append(", ".join(
            f"{name} {_number(cpu.get('busy_percent', 0))} % busy"
            + (f" ({_number(cpu['steal_percent'])} % stolen)" if cpu.get("steal_percent") else "")
            for name, cpu in cpus.items()) + " with other work")
    if isinstance(state.get("load_average"), list):
        parts.append("load " + " ".join(f"{v:.2f}" for v in state["load_average"]))
    if "runnable_tasks" in state:
        parts.append(f"{state['runnable_tasks']} runnable of {state.get('tasks', '?')} tasks")
    if isinstance(state.get("memory_available_bytes"), (int, float)):
        parts.append(f"{_bytes(state['memory_available_bytes'])} memory available")
    if state.get("transparent_hugepage"):
        parts.append(f"transparent huge pages {state['transparent_hugepage']}")
    damon = state.get("damon")
    if isinstance(damon, dict) and damon:
        parts.append("DAMON " + ", ".join(f"{k} {v}" for k, v in damon.items()))
    mhz = (state.get("clock") or {}).get("mhz")
    if isinstance(mhz, dict) and mhz:
        values = sorted(set(mhz.values()))
        parts.append(f"clock {' - '.join(_number(v) for v in (values[0], values[-1]) if v)} MHz"
                     if len(values) > 1 else f"clock {_number(values[0])} MHz")
    text = "; ".join(parts)
    warnings = state.get("warnings") or []
    if warnings:
        text += ". Warnings: " + "; ".join(str(w) for w in warnings)
    return text


def readable(value):
    """Any context value as text: lists and mappings as "key: value" items, not as JSON."""
    if isinstance(value, dict):
        return "; ".join(f"{key}: {readable(item)}" for key, item in value.items())
    if isinstance(value, list):
        if all(isinstance(item, dict) for item in value):
            return " | ".join(readable(item) for item in value)
        return ", ".join(readable(item) for item in value)
    return _number(value)


def _text(key, value):
    if key == "caches" and isinstance(value, list):
        return ", ".join(f"L{c.get('level')} {c.get('type', '')} {c.get('size', 0):,} B"
                         for c in value) or "(none reported)"
    if key == "bands" and isinstance(value, list):
        return "; ".join(f"rows {band.get('rows')}: {_number(band.get('benchmarks', 0))} "
                         f"benchmarks, min time {_number(band.get('min_time_s'))} s, started "
                         f"{band.get('started')}" for band in value if isinstance(band, dict))
    if key == "benchmark_filter" and not value:
        return "(none: every benchmark)"
    if key == "load_avg" and isinstance(value, list):
        return " ".join(f"{v:.2f}" for v in value)
    return readable(value)


def _libraries(context):
    """One row per library: version, linkage and flags (library.X, .linkage, .flags)."""
    names = sorted(key[len("library."):] for key in context
                   if key.startswith("library.") and key.count(".") == 1)
    out = []
    for name in names:
        base = f"library.{name}"
        parts = [readable(context[base])]
        linkage = readable(context.get(f"{base}.linkage", ""))
        if linkage:
            parts.append(linkage if linkage.startswith("header") else f"linked {linkage}")
        if f"{base}.flags" in context:
            parts.append(f"flags: {readable(context[base + '.flags'])}")
        out.append([base, "; ".join(parts)])
    grouped = {f"library.{n}{suffix}" for n in names for suffix in ("", ".linkage", ".flags")}
    out += [[key, readable(context[key])] for key in sorted(context)
            if key.startswith("library.") and key not in grouped]
    return out


def rows(context):
    """[[key, text]]: the machine and build first, then one row per library, then the rest;
    the machine's state before and after the run as a row each."""
    out = [[key, _text(key, context[key])] for key in CONTEXT_FIRST if key in context]
    out += _libraries(context)
    for key, value in context.items():
        if key in CONTEXT_FIRST or key.startswith(("library.", labels.PREFIX)):
            continue
        if key == "machine_state" and isinstance(value, dict):
            out += [[f"machine {when} the run", f"{state.get('time', '?')}: {snapshot(state)}"]
                    for when, state in value.items() if isinstance(state, dict)]
        else:
            out.append([key, _text(key, value)])
    return out


def warnings(context):
    """The machine-state warnings of the run (before and after), for the page's header."""
    state = context.get("machine_state")
    if not isinstance(state, dict):
        return []
    return list(dict.fromkeys(str(w) for snap in state.values() if isinstance(snap, dict)
                              for w in snap.get("warnings") or []))
