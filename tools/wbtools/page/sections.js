// The report page's sections that do not depend on the chosen payload: conformance and
// what each decoder checks, the machine and build, the noise, the measured wire and the
// published experiments replayed over it. Data: the object of tools/wbtools/page/data.py.
"use strict";

const wbSections = (D, what) => {
  const F = wbFormat;
  const {$, el, table, fill} = wbDom;
  const hasLabels = Object.keys(D.labels).length > 0;

  function renderConformance() {
    const c = D.conformance;
    if (!c) {
      fill("conformance", el("p", {}, "No conformance file beside this result " +
                                      "(`wirebench conformance --json RESULT-conformance.json`)."));
    } else {
      const rows = c.decoders.map((d) => ({cells: [d.library,
        ...(hasLabels ? [what("json", "decode", d.library)] : []),
        [`${d.y_accepted}/${d.y_total}`, {class: d.y_accepted < d.y_total ? "bad" : "good"}],
        [`${d.n_rejected}/${d.n_total}`, {class: d.n_rejected < d.n_total ? "bad" : "good"}],
        `${d.i_accepted}/${d.i_total}`, [d.crashed, {class: d.crashed ? "bad" : "good"}],
        [`${d.decode_n_rejected}/${d.n_total}`,
         {class: d.decode_n_rejected < d.n_total ? "bad" : "good"}]]}));
      const files = c.files.map(([name, outcomes, departs]) => ({cells: [name,
        ...outcomes.map((o, i) => [o || "?", {class: departs[i] ? "bad" : ""}])]}));
      fill("conformance",
           el("p", {}, `Every JSON decoder's parse over the ${c.total_files} files of ` +
                       `${c.corpus}: y_ must be accepted, n_ rejected, i_ either; the last ` +
                       "column is our full decode, which must reject every n_ file."),
           table(["decoder", ...(hasLabels ? ["what it does"] : []), "y_ accepted",
                  "n_ rejected", "i_ accepted", "crashes", "decode() rejects n_"], rows,
                 [0, ...(hasLabels ? [0] : []), 1, 1, 1, 1, 1]),
           files.length ? el("h3", {}, "Files where a decoder departs from the expected outcome")
                        : el("p", {}, "Every decoder gives the expected answer on every y_ and " +
                                      "n_ file."),
           files.length ? table(["file", ...c.decoders.map((d) => d.library)], files) : "");
    }
    fill("hostile", D.hostile.length ? table(
      ["format", "decoder", "UTF-8 validated", "XML character ranges checked", "exact doubles",
       "known leniencies"],
      D.hostile.map(([fmt, lib, states, lenient]) => ({cells: [fmt, lib,
        ...states.map((s) => [s || "n/a", {class: s === "yes" ? "good" : s === "no" ? "bad" : ""}]),
        lenient.join("; ") || "-"]}))) :
      el("p", {}, "This result file carries no codec labels (codec.FORMAT.ROLE.LIB in its " +
                  "context), so which checks each decoder makes is not recorded here; " +
                  "docs/hostile-input.md has them."));
  }

  function renderContext() {
    fill("context", table(["context", "value"], D.context.map(([k, v]) => ({
      cells: [k, [v, {class: "context-value"}]], attrs: {"data-key": k}}))));
    const summary = Object.fromEntries(D.context);
    fill("machine", [summary.cpu_model, summary.num_cpus && `${summary.num_cpus} CPUs`,
                     summary.cpu_pinned && `pinned to CPU ${summary.cpu_pinned}`,
                     summary.compiler, summary.git_commit && `commit ${summary.git_commit.slice(0, 7)}`,
                     summary.date].filter(Boolean).join(" · "));
    // What the machine was doing around the run moves the figures: said where it is read.
    fill("run-warnings", D.warnings.length ?
      el("span", {}, "The machine around the run: ", D.warnings.join("; "), " (",
         el("a", {href: "#context-section"}, "machine and build"), ").") : "");
  }

  function renderNoise() {
    const n = D.noise;
    const groups = {};
    for (const [name] of n.noisy) {
      const [fmt, , , op] = name.split("/");
      const key = `${fmt} ${op || ""}`.trim();
      groups[key] = (groups[key] || 0) + 1;
    }
    fill("noise",
         el("p", {}, `${n.noisy.length} of ${n.benchmarks.toLocaleString("en-US")} benchmarks ` +
                     `have a coefficient of variation above ${F.percent(n.threshold, 0)} over ` +
                     "the repetitions: distrust their medians and ratios made of them; they are " +
                     "marked \"noisy\" in the throughput chart. Prefer an interleaved focused run " +
                     "for ratios."),
         n.noisy.length ? table(["format and operation", "benchmarks above"],
           Object.entries(groups).sort((a, b) => b[1] - a[1]).map(([k, v]) => ({cells: [k, v]})),
           [0, 1]) : "",
         n.noisy.length ? el("h3", {}, "The noisiest") : "",
         n.noisy.length ? table(["benchmark", "CV"], n.noisy.slice(0, 15).map(([name, cv]) =>
           ({cells: [name, F.percent(cv)]})), [0, 1]) : "");
    fill("failed", D.failed.length ? table(["benchmark", "reason"],
      D.failed.map(([name, why]) => ({cells: [name, why]}))) :
      el("p", {}, "Every benchmark ran (a pairing that does not round-trip is not timed)."));
  }

  function renderWire() {
    const section = $("wire-section");
    if (!D.wire || !D.wire.rows.length) { section.hidden = true; return; }
    section.hidden = false;
    const within = D.wire.rows.filter((r) => r.ratio && Math.abs(r.ratio - 1) <= 0.05).length;
    const ratio = (x) => (x ? `${x.toFixed(3)}x` : "-");
    fill("wire",
         el("p", {}, `The kernel's TCP over the emulated link (wirebench wire --matrix, ` +
                     `commit ${D.wire.commit || "?"}, ${D.wire.date || "?"}) against the transfer ` +
                     `model: ${within} of ${D.wire.rows.length} cases within ±5 %. ` +
                     "Model / measured per case; \"before\" is the model before the file's " +
                     "recorded model change."),
         table(["profile", "congestion", "payload", "bytes", "connection", "measured (median)",
                "range", "model", "model / measured", "model before", "before / measured"],
               D.wire.rows.map((r) => ({cells: [
                 r.profile, r.congestion, r.payload, F.count(r.bytes), r.connection,
                 F.seconds(r.measured), `${F.seconds(r.min)} - ${F.seconds(r.max)}`,
                 F.seconds(r.model), ratio(r.ratio), F.seconds(r.model_before),
                 ratio(r.ratio_before)]})),
               [0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1]));
  }

  // A scenario's figure by its field name, as the file has it: *_ms and *_s as times, counts
  // with separators, text as it is. data-value keeps the number for the page test.
  function scenarioCell(key, value) {
    if (value == null) return ["-", {}];
    if (typeof value === "boolean") return [value ? "yes" : "no", {}];
    // Text (a published note) keeps a readable width in a wide table.
    if (typeof value !== "number") {
      return [String(value), key.startsWith("published") ? {class: "what"} : {}];
    }
    let text;
    if (/_ms$/.test(key)) text = F.seconds(value / 1000);
    else if (key === "seconds" || /(_s|_seconds)$/.test(key)) text = F.seconds(value);
    else if (Number.isInteger(value)) text = F.count(value);
    else text = F.g3(value);
    const attrs = {"data-value": value};
    if (/fail|^past_timeout$|^not_started$/.test(key) && value > 0) attrs.class = "num bad";
    return [text, attrs];
  }

  function scenarioTable(columns, rows) {
    const isNumber = (v) => typeof v === "number";
    const numeric = columns.map((c, i) => rows.some((r) => isNumber(r[i])) &&
                                          rows.every((r) => r[i] == null || isNumber(r[i])));
    const node = table(columns.map((c) => c.replace(/_/g, " ")),
                       rows.map((r) => ({cells: r.map((v, i) => scenarioCell(columns[i], v))})),
                       numeric);
    node.querySelectorAll("th").forEach((th, i) => th.setAttribute("data-key", columns[i]));
    return node;
  }

  function renderScenario(s) {
    const ok = s.exit_status === 0;
    const pct = (x) => (x == null ? "-" : `${x > 0 ? "+" : ""}${x.toFixed(2)} %`);
    const mbps = (x) => (x == null ? "-" : F.bandwidth(x * 1e6));
    const ms = (x) => (x == null ? "-" : F.seconds(x / 1000));
    const commit = s.commit ? s.commit.slice(0, 7) + (s.commit.endsWith("-dirty") ? "-dirty" : "")
      : "?";
    const parts = [
      el("h3", {}, `${s.scenario}`),
      el("p", {class: "small"}, `${s.file || ""}: commit ${commit}, ${s.date || "?"}; link ` +
                                `${mbps(s.rate_mbps)}, RTT ${ms(s.rtt_ms)}.`),
      ok ? "" : el("p", {class: "scenario-failed"},
                   `The run failed (exit status ${s.exit_status})` +
                   (s.why ? `: ${s.why}` : "") + "; what it printed before is shown."),
    ];
    if (s.checks.length) {
      parts.push(table(["self-check", "RTT", "expected", "error", "rate (IP packets)",
                        "configured", "error", "passed"],
        s.checks.map((c, i) => ({cells: [
          String(i + 1), ms(c.rtt_ms), ms(c.rtt_expected_ms),
          pct(c.rtt_error_pct), mbps(c.rate_mbps), mbps(c.configured_rate_mbps),
          pct(c.rate_error_pct), [c.ok ? "yes" : `no: ${c.failure || ""}`,
                                  {class: c.ok ? "good" : "bad"}]], attrs: {class: "check"}})),
        [0, 1, 1, 1, 1, 1, 1, 0]));
    } else {
      parts.push(el("p", {}, "No self-check line: the link was never checked, so nothing " +
                             "was measured."));
    }
    if (s.tables.length) {
      for (const t of s.tables) parts.push(scenarioTable(t.columns, t.rows));
    } else {
      parts.push(el("p", {}, "No scenario_result line."));
    }
    if (s.calls) {
      parts.push(el("div", {}, `${F.count(s.calls)} calls (http_request lines), ` +
                             `${F.count(s.failed_calls)} failed` +
                             (s.errors.length ? ": " : "."),
                    s.errors.length ? el("ul", {}, s.errors.map(([why, n]) =>
                      el("li", {}, `${F.count(n)} x ${why}`))) : ""));
    }
    for (const o of s.other) {
      if (o.rows) {
        parts.push(el("details", {}, el("summary", {}, `${o.type} lines (${o.count})`),
                      scenarioTable(o.columns, o.rows)));
      } else {
        parts.push(el("p", {class: "small"}, `${F.count(o.count)} ${o.type} lines (in the file).`));
      }
    }
    return el("div", {class: "scenario", "data-scenario": s.scenario}, parts);
  }

  function renderScenarios() {
    const section = $("scenarios-section");
    if (!D.scenarios || !D.scenarios.length) { section.hidden = true; return; }
    section.hidden = false;
    fill("scenarios",
         el("p", {}, "Published experiments replayed over real HTTP on the emulated link " +
                     "(wirebench wire --scenario NAME; docs/wire-http.md), one run per " +
                     "scenario (by default the newest of this result's machine). Columns are " +
                     "the fields of its scenario_result lines, each published_FIELD beside " +
                     "our FIELD; fields in _ms or _s are shown as times."),
         ...D.scenarios.map(renderScenario));
  }

  return {renderConformance, renderContext, renderNoise, renderWire, renderScenarios};
};
