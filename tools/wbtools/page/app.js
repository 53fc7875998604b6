// The report page: the calculator at the top (rank every pairing of a payload on a link),
// then the evidence. Data: the JSON object of tools/wbtools/page/data.py in #wb-data; the
// transfer model: wbModel (model.js); formatting: wbFormat (format.js); charts: Chart.js.
"use strict";

(() => {
  const D = JSON.parse(document.getElementById("wb-data").textContent);
  const F = wbFormat;
  const $ = (id) => document.getElementById(id);
  const PARTS = [["encode", "encode"], ["compress", "compress"], ["wire", "wire"],
                 ["decompress", "decompress"], ["decode", "decode"],
                 ["hops_cpu", "middleware CPU"]];
  // Twenty colours that stay apart (Kelly's and Tableau's sets); past twenty, hues spread by
  // the golden angle, so no chart uses one colour twice.
  const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                  "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#8ca252", "#e7ba52",
                  "#7b4173", "#3182bd", "#31a354", "#fd8d3c", "#636363", "#843c39"];
  const MARKERS = ["circle", "rect", "triangle", "rectRot", "star", "crossRot", "cross",
                   "rectRounded", "dash", "line"];
  const color = (i) => i < COLORS.length ? COLORS[i] :
    `hsl(${Math.round((i * 137.508) % 360)}, 65%, ${i % 2 ? 40 : 55}%)`;
  const marker = (i) => MARKERS[i % MARKERS.length];
  window.wbColor = color;  // the page test checks that colours never repeat

  const charts = {};
  window.wbCharts = charts;  // the page test reads the colours and markers each chart uses

  function draw(id, config) {
    if (charts[id]) charts[id].destroy();
    config.options = Object.assign({animation: false, responsive: true,
                                    maintainAspectRatio: false}, config.options || {});
    charts[id] = new Chart($(id).getContext("2d"), config);
    return charts[id];
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value == null) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("data-")) node.setAttribute(key, value);
      else if (key === "title") node.title = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function table(headers, rows, numeric) {
    // rows: arrays of cells; a cell is text or [text, attrs]
    const head = el("tr", {}, headers.map((h, i) =>
      el("th", {class: numeric && numeric[i] ? "num" : null}, h)));
    const body = rows.map((row) => el("tr", row.attrs || {}, row.cells.map((cell, i) => {
      const [text, attrs] = Array.isArray(cell) ? cell : [cell, {}];
      return el("td", Object.assign({class: numeric && numeric[i] ? "num" : null}, attrs), text);
    })));
    return el("div", {class: "scroll"}, el("table", {}, el("thead", {}, head),
                                             el("tbody", {}, body)));
  }

  function fill(id, ...nodes) {
    const node = $(id);
    node.replaceChildren(...nodes);
    return node;
  }

  const linksByName = Object.fromEntries(D.links.map((link) => [link.name, link]));
  const labelOf = (fmt, role, library) => D.labels[`${fmt}.${role}.${library}`] || null;
  const hasLabels = Object.keys(D.labels).length > 0;

  // ---- the calculator -------------------------------------------------------------------
  const state = {caseKey: D.default_case, linkName: D.default_link, custom: null,
                 format: "all", compression: "all", top: 20};
  const pairingCache = {};

  function pairingsOf(caseKey) {
    if (!pairingCache[caseKey]) {
      const [dataset, rows] = caseKey.split("/");
      pairingCache[caseKey] = (D.pairings[caseKey] || []).map((r) => ({
        format: D.strings[r[0]], serializer: D.strings[r[1]], parser: D.strings[r[2]],
        compression: D.strings[r[3]], wire_bytes: r[4], encode: r[5], decode: r[6],
        compress: r[7], decompress: r[8], dataset, rows: Number(rows)}));
    }
    return pairingCache[caseKey];
  }

  function currentLink() {
    const base = linksByName[state.linkName];
    return state.custom ? Object.assign({}, base, state.custom, {name: "custom"}) : base;
  }

  function pairingLabel(p) {
    const compression = p.compression === "none" ? "" : ` + ${p.compression}`;
    return `${p.format} ${p.serializer} → ${p.parser || "(no decoder)"}${compression}`;
  }

  function pairingWhat(p) {
    if (!hasLabels) return null;
    const writer = labelOf(p.format, "encode", p.serializer) || "-";
    const reader = p.parser ? labelOf(p.format, "decode", p.parser) || "-" : "-";
    return `writer: ${writer}; reader: ${reader}`;
  }

  function linkSummary(link) {
    const knobs = [F.bandwidth(link.bandwidth_bps), `RTT ${F.seconds(link.rtt_s)}`,
                   `${link.connection} connection`];
    if (link.auth_challenge) knobs.push("401 challenge");
    if (link.delayed_ack_s) knobs.push(`delayed-ACK stall ${F.seconds(link.delayed_ack_s)}`);
    if (link.middleware_hops) knobs.push(`${link.middleware_hops} middleware hop(s)`);
    if (!link.slow_start) knobs.push("no slow start");
    return knobs.join(", ");
  }

  function filtered(caseKey) {
    return pairingsOf(caseKey).filter((p) =>
      (state.format === "all" || p.format === state.format) &&
      (state.compression === "all" || p.compression === state.compression));
  }

  function crossoverText(p, link) {
    const [bandwidth, why] = wbModel.crossover(p, link);
    if (bandwidth === null) return `none (${why})`;
    return F.bandwidth(bandwidth) + (why ? ` (${why})` : "");
  }

  function renderGlance() {
    const rows = D.links.map((link) => {
      const ranked = wbModel.rank(filtered(state.caseKey), link);
      if (!ranked.length) return {cells: [link.name, "-", "-", "-", "-", "-"]};
      const [p, parts] = ranked[0];
      return {attrs: {class: link.name === state.linkName && !state.custom ? "chosen" : "link-row",
                      "data-link": link.name,
                      onclick: () => chooseLink(link.name)},
              cells: [[link.name, {title: link.description || ""}], linkSummary(link),
                      pairingLabel(p), [F.seconds(parts.cpu), {"data-seconds": parts.cpu}],
                      [F.seconds(parts.wire), {"data-seconds": parts.wire}],
                      [F.seconds(parts.total), {"data-seconds": parts.total}],
                      F.percent(parts.cpu_share)]};
    });
    fill("glance", table(["link profile", "link", "fastest call", "CPU", "wire", "total",
                          "CPU share"], rows, [0, 0, 0, 1, 1, 1, 1]));
  }

  function renderRanking() {
    const link = currentLink();
    const ranked = wbModel.rank(filtered(state.caseKey), link);
    const [dataset, rows] = state.caseKey.split("/");
    if (!ranked.length) {
      fill("answer", "No pairing of this payload matches the filters.");
      fill("ranking");
      return;
    }
    const [best, bestParts] = ranked[0];
    fill("answer",
      el("p", {class: "headline"}, `${dataset}, ${Number(rows).toLocaleString("en-US")} rows, on `,
         el("b", {}, state.custom ? `your link (${linkSummary(link)})` : link.name), ": ",
         el("b", {id: "best-pairing"}, pairingLabel(best)), ` is fastest at `,
         el("b", {}, F.seconds(bestParts.total)), ` per call: CPU ${F.seconds(bestParts.cpu)} `,
         `(${F.percent(bestParts.cpu_share)}), wire ${F.seconds(bestParts.wire)}. `,
         `CPU and wire cost the same at ${crossoverText(best, link)} on this link's RTT.`),
      el("p", {class: "small"}, `${ranked.length} pairings ranked (format × serializer × `,
         `parser × compression); ${link.name === "custom" ? "custom: " : ""}`,
         linkSummary(link), "."));
    const shown = state.top === "all" ? ranked : ranked.slice(0, state.top);
    const chartRows = ranked.slice(0, Math.min(25, ranked.length));
    $("split-box").style.height = `${80 + chartRows.length * 22}px`;
    draw("split-chart", {
      type: "bar",
      data: {labels: chartRows.map(([p]) => pairingLabel(p)),
             datasets: PARTS.filter(([key]) => chartRows.some(([, parts]) => parts[key] > 0))
               .map(([key, title], i) => ({label: title, backgroundColor: color(i),
                                           borderColor: color(i),
                                           data: chartRows.map(([, parts]) => parts[key] * 1e3)}))},
      options: {indexAxis: "y",
                scales: {x: {stacked: true, title: {display: true, text: "ms per call (linear)"}},
                         y: {stacked: true, ticks: {autoSkip: false, font: {size: 10}}}},
                plugins: {title: {display: true, text: `Where one call's time goes: the ` +
                                  `${chartRows.length} fastest pairings on ${link.name}`}}}});
    const rowsOut = shown.map(([p, parts], i) => ({
      attrs: {"data-pairing": pairingLabel(p), "data-total": parts.total},
      cells: [i + 1, p.format, p.serializer, p.parser || "-", p.compression,
              ...(hasLabels ? [[pairingWhat(p), {class: "what"}]] : []),
              F.count(p.wire_bytes), parts.round_trips,
              ...["encode", "compress", "wire", "decompress", "decode", "cpu", "total"]
                .map((key) => [F.seconds(parts[key]), {"data-seconds": parts[key]}]),
              F.percent(parts.cpu_share),
              i < 60 ? crossoverText(p, link) : "(top 60 only)"]}));
    const headers = ["#", "format", "serializer", "parser", "compression",
                     ...(hasLabels ? ["what it does"] : []), "wire bytes", "RTTs", "encode",
                     "compress", "wire", "decompress", "decode", "CPU", "total", "CPU share",
                     "CPU = wire at"];
    const numeric = headers.map((h) => !["format", "serializer", "parser", "compression",
                                         "what it does", "CPU = wire at"].includes(h));
    fill("ranking", table(headers, rowsOut, numeric),
         shown.length < ranked.length ?
           el("p", {class: "small"}, `${ranked.length - shown.length} slower pairings not shown.`) :
           "");
    renderBandwidth(link);
  }

  function renderBandwidth(link) {
    const best = {};
    for (const [p, parts] of wbModel.rank(filtered(state.caseKey), link)) {
      const key = `${p.format}/${p.compression}`;
      if (!best[key]) best[key] = p;
    }
    const series = Object.values(best);
    const low = 1e5, high = 1e11, points = 61;
    const grid = Array.from({length: points}, (_, i) => low * (high / low) ** (i / (points - 1)));
    draw("bandwidth-chart", {
      type: "line",
      data: {datasets: series.map((p, i) => ({
        label: pairingLabel(p), borderColor: color(i), backgroundColor: color(i),
        pointStyle: marker(i), borderWidth: 1.5,
        pointRadius: (ctx) => ctx.dataIndex % 10 === 0 ? 4 : 0,
        data: grid.map((bw) => ({x: bw, y: wbModel.call(p, link, bw).total * 1e3}))}))},
      options: {parsing: false,
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "bandwidth, bit/s (log scale)"}},
                         y: {type: "logarithmic", title: {display: true,
                                                          text: "ms per call (log scale)"}}},
                plugins: {legend: {position: "bottom", labels: {usePointStyle: true,
                                                                  font: {size: 10}}},
                          title: {display: true, text: `Total time against bandwidth at ` +
                                  `${link.name}'s RTT ${F.seconds(link.rtt_s)} and knobs: the ` +
                                  `fastest pairing of each format and compression`}}}});
  }

  function chooseLink(name) {
    state.linkName = name;
    state.custom = null;
    $("link").value = name;
    const link = linksByName[name];
    $("bandwidth").value = +(link.bandwidth_bps / 1e6).toPrecision(6);
    $("rtt").value = +(link.rtt_s * 1e3).toPrecision(6);
    $("connection").value = link.connection;
    renderCalculator();
  }

  function renderCalculator() {
    renderGlance();
    renderRanking();
  }

  function setupControls() {
    const caseSelect = $("case");
    for (const key of D.cases) {
      const [dataset, rows] = key.split("/");
      caseSelect.append(el("option", {value: key},
                           `${dataset}, ${Number(rows).toLocaleString("en-US")} rows`));
    }
    caseSelect.value = state.caseKey;
    for (const link of D.links) {
      $("link").append(el("option", {value: link.name, title: linkSummary(link)}, link.name));
    }
    const formats = [...new Set(Object.values(D.pairings).flat().map((r) => D.strings[r[0]]))];
    const compressions = [...new Set(Object.values(D.pairings).flat().map((r) => D.strings[r[3]]))];
    for (const f of formats.sort()) $("format").append(el("option", {value: f}, f));
    for (const c of compressions.sort()) $("compression").append(el("option", {value: c}, c));
    caseSelect.addEventListener("change", () => { state.caseKey = caseSelect.value; renderAll(); });
    $("link").addEventListener("change", () => chooseLink($("link").value));
    const custom = () => {
      const bandwidth = Number($("bandwidth").value), rtt = Number($("rtt").value);
      if (!(bandwidth > 0) || !(rtt >= 0)) {
        fill("custom-error", "Bandwidth must be above 0 and RTT at least 0.");
        return;
      }
      fill("custom-error");
      state.custom = {bandwidth_bps: bandwidth * 1e6, rtt_s: rtt / 1e3,
                      connection: $("connection").value};
      renderCalculator();
    };
    for (const id of ["bandwidth", "rtt", "connection"]) $(id).addEventListener("change", custom);
    $("format").addEventListener("change", () => { state.format = $("format").value;
                                                   renderCalculator(); });
    $("compression").addEventListener("change", () => { state.compression = $("compression").value;
                                                        renderCalculator(); });
    $("top").addEventListener("change", () => {
      state.top = $("top").value === "all" ? "all" : Number($("top").value);
      renderRanking();
    });
  }

  // ---- the evidence ---------------------------------------------------------------------
  const inCase = (caseField) => {
    const [dataset, rows] = state.caseKey.split("/");
    return caseField.endsWith(`/${dataset}/${rows}`);
  };
  const formatOf = (caseField) => caseField.split("/")[0];

  function renderThroughput() {
    const op = $("op").value;
    const entries = D.throughput.filter((t) => inCase(t.case) && t.op === op &&
      (op !== "decode" || t.source === "reference" || t.source === ""));
    const withRate = entries.filter((t) => t.bytes && t.median)
      .map((t) => Object.assign({}, t, {rate: t.bytes / t.median,
                                        rateLow: t.high ? t.bytes / t.high : null,
                                        rateHigh: t.low ? t.bytes / t.low : null}))
      .sort((a, b) => b.rate - a.rate);
    const label = (t) => `${formatOf(t.case)} ${t.library}${t.noisy ? " (noisy)" : ""}`;
    $("throughput-box").style.height = `${90 + withRate.length * 20}px`;
    const ci = withRate.filter((t) => t.interval === "ci").length;
    draw("throughput-chart", {
      type: "bar",
      data: {labels: withRate.map(label), datasets: [
        {type: "bar", label: ci === withRate.length ? "95 % interval of the median" :
           ci ? "95 % interval of the median, or min–max below 6 repetitions" :
           "min–max over the repetitions (fewer than 6: no 95 % interval)",
         backgroundColor: "rgba(31, 119, 180, 0.35)", borderColor: COLORS[0], borderWidth: 1,
         data: withRate.map((t) => [t.rateLow / 1e6, t.rateHigh / 1e6]),
         barPercentage: 0.6, order: 2},
        {type: "line", label: "median", showLine: false, pointStyle: "rectRot", pointRadius: 5,
         borderColor: COLORS[3], backgroundColor: COLORS[3], indexAxis: "y",
         data: withRate.map((t) => t.rate / 1e6), order: 1}]},
      options: {indexAxis: "y",
                scales: {x: {type: "logarithmic",
                             title: {display: true, text: "MB/s of payload (10^6 B/s, log scale)"}},
                         y: {ticks: {autoSkip: false, font: {size: 10}}}},
                plugins: {legend: {labels: {usePointStyle: true}}}}});
    const rows = entries.map((t) => ({cells: [
      t.case, t.library + (t.source ? ` ← ${t.source}` : ""),
      ...(hasLabels ? [[t.labels || "-", {class: "what"}]] : []),
      [F.seconds(t.median), {"data-seconds": t.median, "data-name": `${t.case}/${t.op}/${t.library}`}],
      F.megabytesPerSecond(t.bytes && t.median ? t.bytes / t.median : null),
      t.low == null ? "-" : `${F.seconds(t.low)} – ${F.seconds(t.high)}`,
      t.interval === "ci" ? `95 % CI (${F.percent(t.coverage)})` :
        t.interval === "minmax" ? `min–max (n = ${t.n})` : "-",
      F.percent(t.cv), t.noisy ? "noisy" : ""]}));
    fill("throughput-table", table(["payload", "library (← input from)",
                                    ...(hasLabels ? ["what it does"] : []), "median",
                                    "MB/s", "interval", "kind", "CV", ""], rows,
                                   [0, 0, ...(hasLabels ? [0] : []), 1, 1, 1, 0, 1, 0]));
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
    for (const [caseKey, cells] of Object.entries(D.matrix)) {
      if (!inCase(caseKey)) continue;
      const fmt = formatOf(caseKey);
      const parsers = [...new Set(cells.map((c) => c[0]))].sort();
      const sources = [...new Set(cells.map((c) => c[1]))].sort();
      const rates = cells.map((c) => c[2]).filter((r) => r > 0);
      const lo = Math.log(Math.min(...rates)), hi = Math.log(Math.max(...rates));
      const at = Object.fromEntries(cells.map((c) => [`${c[0]}|${c[1]}`, c]));
      const rows = parsers.map((parser) => ({cells: [
        parser, ...(hasLabels ? [[labelOf(fmt, "decode", parser) || "-", {class: "what"}]] : []),
        ...sources.map((source) => {
          const c = at[`${parser}|${source}`];
          if (!c || !(c[2] > 0)) return "-";
          const [bg, fg] = heatColor(hi > lo ? (Math.log(c[2]) - lo) / (hi - lo) : 1);
          return [`${F.megabytesPerSecond(c[2])}`, {style: `background:${bg};color:${fg}`,
                                                   title: `${parser} ← ${source}: ` +
                                                     `${F.seconds(c[3])} per call`}];
        })]}));
      parts.push(el("h3", {}, `${caseKey}: MB/s, rows parser, columns the serializer that ` +
                              `wrote the input (log colour scale)`),
                 table(["parser \\ serializer", ...(hasLabels ? ["what it does"] : []),
                        ...sources], rows,
                       [0, ...(hasLabels ? [0] : []), ...sources.map(() => 1)]));
    }
    fill("matrix", ...(parts.length ? parts : [el("p", {}, "No decode benchmark at this size.")]));
  }

  function renderParseOnly() {
    const entries = D.parse_only.filter((e) => inCase(e.case));
    const label = (e) => `${formatOf(e.case)} ${e.parser}`;
    $("parse-box").style.height = `${90 + entries.length * 26}px`;
    draw("parse-chart", {
      type: "bar",
      data: {labels: entries.map(label), datasets: [
        {label: "parse only", backgroundColor: COLORS[0], data: entries.map((e) => e.parse * 1e3)},
        {label: "decode + bind (median over inputs)", backgroundColor: COLORS[1],
         data: entries.map((e) => e.decode == null ? null : e.decode * 1e3)}]},
      options: {indexAxis: "y",
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "ms per call (log scale)"}},
                         y: {ticks: {autoSkip: false, font: {size: 10}}}}}});
    fill("parse-table", table(["payload", "parser", "parse only", "decode + bind",
                               "binding share", "decode / parse", "largest CV"],
      entries.map((e) => ({cells: [e.case, e.parser, F.seconds(e.parse), F.seconds(e.decode),
        e.decode ? F.percent(1 - e.parse / e.decode) : "-",
        e.decode ? `${(e.decode / e.parse).toFixed(2)}x` : "-", F.percent(e.cv)]})),
      [0, 0, 1, 1, 1, 1, 1]));
  }

  function renderMemory() {
    const entries = D.memory.filter((m) => inCase(m.case));
    fill("memory", entries.length ? table(
      ["payload", "operation", "library", "allocs/call", "allocs/row", "bytes allocated/call",
       "peak bytes", "peak / payload byte", "retained"],
      entries.map((m) => ({cells: [m.case, m.op, m.library, F.count(m.allocs),
        m.allocs != null && m.rows ? (m.allocs / m.rows).toFixed(2) : "-", F.count(m.total),
        F.count(m.peak), m.peak != null && m.payload ? (m.peak / m.payload).toFixed(2) : "-",
        F.count(m.retained)]})), [0, 0, 0, 1, 1, 1, 1, 1, 1]) :
      el("p", {}, "No memory figures at this size (the allocation counter was off or the " +
                  "benchmarks are absent)."));
  }

  function renderSizes() {
    const reference = {};
    for (const s of D.sizes) {
      if (!reference[s.case] || s.serializer === "reference") reference[s.case] = s;
    }
    const cases = Object.keys(reference).sort();
    const kinds = [["wire", "raw"], ["gzip", "gzip"], ["br", "brotli"], ["zstd", "zstd"]]
      .filter(([key]) => cases.some((c) => reference[c][key] != null));
    $("sizes-box").style.height = `${90 + cases.length * kinds.length * 7}px`;
    draw("sizes-chart", {
      type: "bar",
      data: {labels: cases, datasets: kinds.map(([key, title], i) => ({
        label: title, backgroundColor: color(i), data: cases.map((c) => reference[c][key])}))},
      options: {indexAxis: "y",
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "bytes per payload (log scale)"}},
                         y: {ticks: {autoSkip: false, font: {size: 10}}}}}});
    fill("published", D.published.length ? table(
      ["payload", "ours (B)", "published (B)", "published figure", "verdict"],
      D.published.map((p) => ({cells: [p.case, [F.count(p.ours), {"data-bytes": p.ours}],
                                        F.count(p.published), p.source, p.verdict]})),
      [0, 1, 1, 0, 0]) : el("p", {}, "None of the payloads with a published size is in this " +
                                     "result file."));
  }

  function renderConformance() {
    const c = D.conformance;
    if (!c) {
      fill("conformance", el("p", {}, "No conformance file beside this result " +
                                      "(`wirebench conformance --json RESULT-conformance.json`)."));
    } else {
      const rows = c.decoders.map((d) => ({cells: [d.library,
        ...(hasLabels ? [[labelOf("json", "decode", d.library) || "-", {class: "what"}]] : []),
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
    fill("context", table(["context", "value"], D.context.map(([k, v]) => ({cells: [k, v]}))));
    const summary = Object.fromEntries(D.context);
    fill("machine", [summary.cpu_model, summary.num_cpus && `${summary.num_cpus} CPUs`,
                     summary.cpu_pinned && `pinned to CPU ${summary.cpu_pinned}`,
                     summary.compiler, summary.git_commit && `commit ${summary.git_commit.slice(0, 7)}`,
                     summary.date].filter(Boolean).join(" · "));
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

  function renderEvidence() {
    renderThroughput();
    renderMatrix();
    renderParseOnly();
    renderMemory();
  }

  function renderAll() {
    renderCalculator();
    renderEvidence();
    for (const node of document.querySelectorAll(".case-name")) {
      node.textContent = $("case").selectedOptions[0].textContent;
    }
  }

  function setupEvidence() {
    const ops = [...new Set(D.throughput.map((t) => t.op))];
    for (const op of ops) $("op").append(el("option", {value: op}, op));
    $("op").value = ops.includes("decode") ? "decode" : ops[0];
    $("op").addEventListener("change", renderThroughput);
    if (D.notes.length) {
      fill("notes", el("ul", {}, D.notes.map((note) => el("li", {}, note))));
    }
    $("appendix").innerHTML = D.appendix || "<p>No further tables.</p>";
  }

  setupControls();
  setupEvidence();
  renderContext();
  renderSizes();
  renderConformance();
  renderNoise();
  renderWire();
  renderScenarios();
  if (state.linkName) chooseLink(state.linkName);
  renderAll();
  window.wbReady = true;
})();
