// The report page's evidence for the chosen payload: throughput with intervals and each
// library against the fastest, the serializer × parser matrix, decode against parse-only,
// memory per operation; and the sizes of every payload. A part the run does not hold says so
// in place of its chart. Data: the object of tools/wbtools/page/data.py.
"use strict";

const wbEvidence = (D, what) => {
  const F = wbFormat;
  const W = wbDom;
  const {$, el, table, fill, draw, COLORS} = W;
  const hasLabels = Object.keys(D.labels).length > 0;
  const formatOf = (caseField) => caseField.split("/")[0];
  const ROLE = {"encode": "encode", "route": "route"};  // every other operation: decode
  const roleOf = (op) => ROLE[op] || "decode";
  let caseKey = D.default_case;
  const inCase = (caseField) => caseField.slice(caseField.indexOf("/") + 1) === caseKey;

  // "× fastest [low – high]" of a throughput entry, with the verdict as its class. A
  // competitor racing settled has its own interval, the min–max of its few rounds, labelled
  // with its coverage, and a mark in place of a verdict: it is never called tied.
  function ratioCells(t) {
    if (t.ratio == null) return ["-", "-", "-"];
    const settled = t.settled != null ? D.settled[t.settled] : null;
    const interval = t.ratio_low == null ? "-" :
      `${t.ratio_low.toFixed(2)} – ${t.ratio_high.toFixed(2)}` +
      (settled ? ` (${F.percent(t.ratio_coverage, 0)}, min–max)` : "");
    if (settled) {
      return [[`${t.ratio.toFixed(2)}x`, {"data-ratio": t.ratio}], interval,
              [W.settledMark(`settled after ${settled[1]} rounds`, settled[2]),
               {class: "verdict", "data-verdict": "settled"}]];
    }
    const verdict = t.verdict === "fastest" ? "fastest" : t.verdict === "tied" ?
      `tied with ${t.fastest}` : t.verdict === "slower" ? `slower than ${t.fastest}` : t.verdict;
    return [[`${t.ratio.toFixed(2)}x`, {"data-ratio": t.ratio}], interval,
            [verdict, {class: t.verdict === "slower" ? "verdict" : "verdict good",
                       "data-verdict": t.verdict}]];
  }

  // What the interval of a throughput entry's time is.
  function intervalKind(t) {
    if (t.settled != null) {
      return `min–max of ${D.settled[t.settled][1]} rounds (${F.percent(t.coverage, 0)})`;
    }
    return t.interval === "ci" ? `95 % (${F.percent(t.coverage, 0)})` :
      t.interval === "minmax" ? `min–max (n = ${t.n})` : "-";
  }

  function renderThroughput() {
    const op = $("op").value;
    const entries = D.throughput.filter((t) => inCase(t.case) && t.op === op &&
      (op !== "decode" || t.source === "reference" || t.source === ""));
    const withRate = entries.filter((t) => t.bytes && t.median)
      .map((t) => Object.assign({}, t, {rate: t.bytes / t.median,
                                        rateLow: t.high ? t.bytes / t.high : null,
                                        rateHigh: t.low ? t.bytes / t.low : null}))
      .sort((a, b) => b.rate - a.rate);
    W.showBox("throughput-box", withRate.length > 0, "throughput-none",
              "No benchmark of this operation carries a throughput at this payload.");
    if (!withRate.length) W.clear("throughput-chart");
    else {
      const labels = W.barLabels("throughput-box", withRate.map((t) =>
        `${formatOf(t.case)} ${t.library}${t.noisy ? " (noisy)" : ""}` +
        (t.settled != null ? " (settled)" : "")), 14, 110);
      // Settled competitors' bars apart, in grey: their interval is the min–max of the rounds
      // they ran, at the coverage the legend gives, not a 95 % interval.
      const contenders = withRate.filter((t) => t.settled == null);
      const settled = withRate.filter((t) => t.settled != null);
      const ci = contenders.filter((t) => t.interval === "ci").length;
      const bar = (t) => [t.rateLow / 1e6, t.rateHigh / 1e6];
      const coverages = [...new Set(settled.map((t) => F.percent(t.coverage, 0)))];
      draw("throughput-chart", {
        type: "bar",
        data: {labels, datasets: [
          {type: "bar", label: ci === contenders.length ? "95 % interval of the median" :
             ci ? "95 % interval of the median, or min–max below 6 repetitions" :
             "min–max over the repetitions (fewer than 6: no 95 % interval)",
           backgroundColor: "rgba(31, 119, 180, 0.35)", borderColor: COLORS[0], borderWidth: 1,
           data: withRate.map((t) => t.settled == null ? bar(t) : null),
           barPercentage: 0.6, grouped: false, order: 2},
          ...(settled.length ? [
            {type: "bar", label: `settled by racing: min–max of its rounds ` +
               `(${coverages.join(", ")})`,
             backgroundColor: "rgba(127, 127, 127, 0.3)", borderColor: COLORS[7],
             borderWidth: 1, data: withRate.map((t) => t.settled != null ? bar(t) : null),
             barPercentage: 0.6, grouped: false, order: 2}] : []),
          {type: "line", label: "median", showLine: false, pointStyle: "rectRot", pointRadius: 5,
           borderColor: COLORS[3], backgroundColor: COLORS[3], indexAxis: "y",
           data: withRate.map((t) => t.rate / 1e6), order: 1}]},
        options: {indexAxis: "y",
                  scales: {x: {type: "logarithmic",
                               title: {display: true, text: "MB/s of payload (log scale)"}},
                           y: {ticks: W.ticks}},
                  plugins: {legend: {labels: {usePointStyle: true, boxWidth: 8,
                                              font: {size: 10}}}}}});
    }
    const rows = entries.slice().sort((a, b) => a.median - b.median).map((t) => ({cells: [
      t.library + (t.source ? ` ← ${t.source}` : ""),
      ...(hasLabels ? [what(formatOf(t.case), roleOf(t.op), t.library)] : []),
      [F.seconds(t.median),
       {"data-seconds": t.median, "data-name": `${t.case}/${t.op}/${t.library}`}],
      F.megabytesPerSecond(t.bytes && t.median ? t.bytes / t.median : null),
      t.low == null ? "-" : `${F.seconds(t.low)} – ${F.seconds(t.high)}`, intervalKind(t),
      F.percent(t.cv), ...ratioCells(t), t.noisy ? "noisy" : ""],
      attrs: {"data-library": t.library}}));
    fill("throughput-table", entries.length ? table(
      ["library (← input from)", ...(hasLabels ? ["what it does"] : []), "median", "MB/s",
       "interval of the median", "kind", "CV", "× fastest", "95 % interval", "verdict", ""],
      rows, [0, ...(hasLabels ? [0] : []), 1, 1, 1, 0, 1, 1, 1, 0, 0]) : "");
  }

  function heatColor(fraction) {
    // light yellow (slow) to dark blue (fast), in steps a reader can tell apart
    const stops = [[255, 255, 204], [161, 218, 180], [65, 182, 196], [44, 127, 184],
                   [37, 52, 148]];
    const x = Math.max(0, Math.min(1, fraction)) * (stops.length - 1);
    const i = Math.min(stops.length - 2, Math.floor(x)), t = x - i;
    const c = stops[i].map((v, k) => Math.round(v + (stops[i + 1][k] - v) * t));
    return [`rgb(${c.join(",")})`, x > 2.2 ? "white" : "black"];
  }

  function renderMatrix() {
    const parts = [];
    for (const [key, cells] of Object.entries(D.matrix)) {
      if (!inCase(key)) continue;
      const fmt = formatOf(key);
      const parsers = [...new Set(cells.map((c) => c[0]))].sort();
      const sources = [...new Set(cells.map((c) => c[1]))].sort();
      const rates = cells.map((c) => c[2]).filter((r) => r > 0);
      const lo = Math.log(Math.min(...rates)), hi = Math.log(Math.max(...rates));
      const at = Object.fromEntries(cells.map((c) => [`${c[0]}|${c[1]}`, c]));
      const rows = parsers.map((parser) => ({cells: [
        parser, ...(hasLabels ? [what(fmt, "decode", parser)] : []),
        ...sources.map((source) => {
          const c = at[`${parser}|${source}`];
          if (!c || !(c[2] > 0)) return "-";
          const [bg, fg] = heatColor(hi > lo ? (Math.log(c[2]) - lo) / (hi - lo) : 1);
          return [`${F.megabytesPerSecond(c[2])}`, {style: `background:${bg};color:${fg}`,
                                                   title: `${parser} ← ${source}: ` +
                                                     `${F.seconds(c[3])} per call`}];
        })]}));
      parts.push(el("h3", {}, `${key}: MB/s, rows parser, columns the serializer that ` +
                              `wrote the input (log colour scale)`),
                 table(["parser \\ serializer", ...(hasLabels ? ["what it does"] : []),
                        ...sources], rows,
                       [0, ...(hasLabels ? [0] : []), ...sources.map(() => 1)]));
    }
    fill("matrix", ...(parts.length ? parts : [el("p", {}, "No decode benchmark at this size.")]));
  }

  function renderParseOnly() {
    const entries = D.parse_only.filter((e) => inCase(e.case));
    W.showBox("parse-box", entries.length > 0, "parse-none",
              "No parse-only benchmark at this payload: decode is not split into parse and " +
              "binding.");
    if (!entries.length) {
      W.clear("parse-chart");
      fill("parse-table");
      return;
    }
    const labels = W.barLabels("parse-box", entries.map((e) => `${formatOf(e.case)} ${e.parser}`),
                               26);
    draw("parse-chart", {
      type: "bar",
      data: {labels, datasets: [
        {label: "parse only", backgroundColor: COLORS[0], data: entries.map((e) => e.parse * 1e3)},
        {label: "decode + bind (median over inputs)", backgroundColor: COLORS[1],
         data: entries.map((e) => e.decode == null ? null : e.decode * 1e3)}]},
      options: {indexAxis: "y",
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "ms per call (log scale)"}},
                         y: {ticks: W.ticks}}}});
    fill("parse-table", table(["payload", "parser", "parse only", "decode + bind",
                               "binding share", "decode / parse", "largest CV"],
      entries.map((e) => ({cells: [e.case, e.parser, F.seconds(e.parse), F.seconds(e.decode),
        e.decode ? F.percent(1 - e.parse / e.decode) : "-",
        e.decode ? `${(e.decode / e.parse).toFixed(2)}x` : "-", F.percent(e.cv)]})),
      [0, 0, 1, 1, 1, 1, 1]));
  }

  const times = (x) => (x >= 100 ? F.count(x) : x.toFixed(1)) + "x";

  // Memory per call of one operation, fewest bytes allocated first (data.py sorts them): a
  // chart of bytes allocated and peak bytes, a sentence on the spread, the figures on request.
  function renderMemory() {
    const all = D.memory.filter((m) => inCase(m.case));
    const ops = [...new Set(all.map((m) => m.op))];
    const select = $("memory-op");
    const chosen = ops.includes(select.value) ? select.value : ops[0];
    select.replaceChildren(...ops.map((op) => el("option", {value: op}, op)));
    select.value = chosen || "";
    $("memory-controls").hidden = ops.length < 2;
    const entries = all.filter((m) => m.op === chosen);
    W.showBox("memory-box", entries.length > 0, "memory-summary",
              "No memory figures at this payload (the allocation counter was off or the " +
              "benchmarks are absent).");
    if (!entries.length) {
      W.clear("memory-chart");
      fill("memory-table");
      return;
    }
    const label = (m) => `${formatOf(m.case)} ${m.library}`;
    const counted = entries.filter((m) => m.total != null);
    if (counted.length >= 2) {
      const least = counted[0], most = counted[counted.length - 1];
      fill("memory-summary", el("p", {}, `${chosen}, ${counted.length} libraries: ` +
        `${label(least)} allocates least (${F.bytes(least.total)} in ` +
        `${F.count(least.allocs)} allocations per call), ${label(most)} most ` +
        `(${F.bytes(most.total)} in ${F.count(most.allocs)}` +
        (least.total > 0 ? `, ${times(most.total / least.total)} as much` : "") + ")."));
    } else {
      fill("memory-summary");
    }
    const labels = W.barLabels("memory-box", entries.map(label), 22);
    draw("memory-chart", {
      type: "bar",
      data: {labels, datasets: [
        {label: "bytes allocated per call", backgroundColor: COLORS[0],
         data: entries.map((m) => m.total || null)},
        {label: "peak bytes in use", backgroundColor: COLORS[1],
         data: entries.map((m) => m.peak || null)}]},
      options: {indexAxis: "y",
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "bytes per call (log scale)"}},
                         y: {ticks: W.ticks}}}});
    fill("memory-table", table(
      ["library", "allocs/call", "allocs/row", "bytes allocated/call", "peak bytes",
       "peak / payload byte", "retained"],
      entries.map((m) => ({cells: [label(m), F.count(m.allocs),
        m.allocs != null && m.rows ? (m.allocs / m.rows).toFixed(2) : "-", F.count(m.total),
        F.count(m.peak), m.peak != null && m.payload ? (m.peak / m.payload).toFixed(2) : "-",
        F.count(m.retained)]})), [0, 1, 1, 1, 1, 1, 1]));
  }

  function renderSizes() {
    const reference = {};
    for (const s of D.sizes) {
      if (!reference[s.case] || s.serializer === "reference") reference[s.case] = s;
    }
    const cases = Object.keys(reference).sort();
    W.showBox("sizes-box", cases.length > 0, "sizes-none",
              "No encode benchmark in this run: no payload sizes.");
    if (cases.length) {
      const kinds = [["wire", "raw"], ["gzip", "gzip"], ["br", "brotli"], ["zstd", "zstd"],
                     ["lz4", "lz4"], ["snappy", "snappy"]]
        .filter(([key]) => cases.some((c) => reference[c][key] != null));
      $("sizes-box").style.height = `${90 + cases.length * Math.max(kinds.length * 7, 16)}px`;
      draw("sizes-chart", {
        type: "bar",
        data: {labels: cases, datasets: kinds.map(([key, title], i) => ({
          label: title, backgroundColor: W.color(i), data: cases.map((c) => reference[c][key])}))},
        options: {indexAxis: "y",
                  scales: {x: {type: "logarithmic",
                               title: {display: true, text: "bytes per payload (log scale)"}},
                           y: {ticks: W.ticks}}}});
    }
    fill("published", D.published.length ? table(
      ["payload", "ours (B)", "published (B)", "published figure", "verdict"],
      D.published.map((p) => ({cells: [p.case, [F.count(p.ours), {"data-bytes": p.ours}],
                                        F.count(p.published), p.source, p.verdict]})),
      [0, 1, 1, 0, 0]) : el("p", {}, "None of the payloads with a published size is in this " +
                                     "result file."));
  }

  function setup() {
    const ops = [...new Set(D.throughput.map((t) => t.op))];
    for (const op of ops) $("op").append(el("option", {value: op}, op));
    $("op").value = ops.includes("decode") ? "decode" : ops[0] || "";
    $("op").addEventListener("change", renderThroughput);
    $("memory-op").addEventListener("change", renderMemory);
  }

  function render(key) {
    caseKey = key;
    renderThroughput();
    renderMatrix();
    renderParseOnly();
    renderMemory();
  }

  return {setup, render, renderSizes};
};
