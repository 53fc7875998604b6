"""The measured wire and the scenario runs for the report page: `wirebench wire --matrix`'s
cases beside the model, and each `wirebench wire --scenario NAME` file's results, self-check
and calls, as the page's tables show them."""


def wire_data(wire_result, links_by_name):
    """The measured wire (`wirebench wire --matrix`'s -wire.json, loaded as JSON): per case
    the profile, congestion control, payload, connection, the measured median and range in
    seconds, and the model's time (tcp.py as the file recorded it, after and before a model
    change) with its ratio to the measurement."""
    if wire_result is None:
        return None
    rows = []
    for case in wire_result.get("cases", []):
        if case.get("stack"):
            continue  # a call over a stack (wire --matrix --stack): not a raw transfer
        model = case.get("model", {})
        after, before = model.get("after", {}), model.get("before", {})
        rows.append({"profile": case.get("profile"), "known": case.get("profile") in links_by_name,
                     "congestion": case.get("congestion"), "payload": case.get("payload"),
                     "bytes": case.get("bytes"), "connection": case.get("connection"),
                     "repetitions": case.get("repetitions"),
                     "measured": _ms(case.get("median_ms")), "min": _ms(case.get("min_ms")),
                     "max": _ms(case.get("max_ms")), "model": _ms(after.get("ms")),
                     "ratio": after.get("ratio"), "model_before": _ms(before.get("ms")),
                     "ratio_before": before.get("ratio")})
    context = wire_result.get("context", {})
    return {"file": context.get("file"), "commit": context.get("git_commit"),
            "date": context.get("date"), "rows": rows}


def _ms(value):
    return value / 1000 if isinstance(value, (int, float)) else None


# Fields of a scenario_result line that are not figures of a series.
_SCENARIO_SKIP = ("type", "scenario", "series")
# Line types of "other" that the page shows as tables when a file has this many or fewer of
# them (a scenario's own outcomes, such as faults' cases); more are counted only.
SCENARIO_OTHER_ROWS = 12


def scenario_columns(lines):
    """The columns of one table of scenario_result lines: the series, then each field in the
    order the lines give it, each published_FIELD right after FIELD (ours beside the published
    figure), the published note last. Any field a new scenario prints is shown as it is."""
    keys = list(dict.fromkeys(k for line in lines for k in line if k not in _SCENARIO_SKIP))
    published_of = {k: f"published_{k}" for k in keys if f"published_{k}" in keys}
    placed = set(published_of.values()) | {"published"}
    columns = ["series"]
    for key in keys:
        if key in placed:
            continue
        columns.append(key)
        if key in published_of:
            columns.append(published_of[key])
    return columns + (["published"] if "published" in keys else [])


def _scenario_tables(lines):
    """Consecutive lines with the same fields make one table (a scenario's one-client series
    and its concurrent ones differ): [{"columns": [...], "rows": [[value per column]]}]."""
    tables = []
    for line in lines:
        fields = tuple(k for k in line if k not in _SCENARIO_SKIP)
        if not tables or tables[-1]["fields"] != fields:
            tables.append({"fields": fields, "lines": []})
        tables[-1]["lines"].append(line)
    out = []
    for table in tables:
        columns = scenario_columns(table["lines"])
        out.append({"columns": columns,
                    "rows": [[line.get(c) for c in columns] for line in table["lines"]]})
    return out


def _scenario_check(line, context):
    result = line.get("result", line) if isinstance(line, dict) else {}
    link = context.get("link") if isinstance(context.get("link"), dict) else {}
    return {"ok": result.get("ok"), "rtt_ms": result.get("rtt_median_ms"),
            "rtt_expected_ms": result.get("rtt_expected_ms"),
            "rtt_error_pct": result.get("rtt_error_pct"),
            "rate_mbps": result.get("ip_rate_mbps"),
            "configured_rate_mbps": result.get("configured_rate_mbps", link.get("rate_mbps")),
            "rate_error_pct": result.get("rate_error_pct"),
            "failure": result.get("failure") or None}


def scenario_data(scenario):
    """One `wirebench wire --scenario NAME` file (loaded as JSON) for the page: its
    scenario_result lines as tables, the self-check's RTT and rate, the calls and the ones
    that failed, and the other lines by kind."""
    context = scenario.get("context", {})
    requests = scenario.get("requests", [])
    failed = [r for r in requests if r.get("error") or r.get("checked") is False]
    errors = {}
    for r in failed:
        text = str(r.get("error") or "rows differ")
        errors[text] = errors.get(text, 0) + 1
    kinds = {}
    for line in scenario.get("other", []):
        kinds.setdefault(str(line.get("type", "?")), []).append(line)
    other = []
    for kind, lines in kinds.items():
        entry = {"type": kind, "count": len(lines)}
        if len(lines) <= SCENARIO_OTHER_ROWS:
            columns = list(dict.fromkeys(k for line in lines for k in line if k != "type"))
            entry.update(columns=columns, rows=[[line.get(c) for c in columns] for line in lines])
        other.append(entry)
    link = context.get("link") if isinstance(context.get("link"), dict) else {}
    status = scenario.get("exit_status")
    tail = scenario.get("stderr_tail") or []
    return {"scenario": scenario.get("scenario"), "file": scenario.get("file"),
            "date": context.get("date"), "commit": context.get("git_commit"),
            "rate_mbps": link.get("rate_mbps"), "rtt_ms": link.get("rtt_ms"),
            "exit_status": status, "why": tail[-1] if status and tail else None,
            "checks": [_scenario_check(c, context) for c in scenario.get("checks", [])],
            "tables": _scenario_tables(scenario.get("results", [])),
            "calls": len(requests), "failed_calls": len(failed),
            "errors": sorted(errors.items(), key=lambda e: -e[1])[:5], "other": other}


def scenarios_data(scenario_files):
    """Every scenario file for the page, in the order given, or None without any."""
    return [scenario_data(s) for s in scenario_files] if scenario_files else None
