// The report page: what the run holds, then the calculator (the fastest call of each format
// on a link, every link's fastest, every pairing on request), then the evidence. Data: the
// JSON object of tools/wbtools/page/data.py in #wb-data, gzipped (wbDom.data unpacks it);
// the transfer model: wbModel
// (model.js); formatting: wbFormat (format.js); building: wbDom (dom.js); charts: Chart.js.
"use strict";

(async () => {
  const D = await wbDom.data();
  const F = wbFormat;
  const W = wbDom;
  const {$, el, table, fill, draw} = W;
  const PARTS = [["encode", "encode"], ["compress", "compress"], ["wire", "wire"],
                 ["decompress", "decompress"], ["decode", "decode"],
                 ["hops_cpu", "middleware CPU"]];
  window.wbColor = W.color;  // the page test checks that colours never repeat
  window.wbCharts = W.charts;  // the page test reads the colours and markers each chart uses

  const linksByName = Object.fromEntries(D.links.map((link) => [link.name, link]));
  const labelOf = (fmt, role, library) => D.labels[`${fmt}.${role}.${library}`] || null;
  const tagOf = (fmt, role, library) => D.tags[`${fmt}.${role}.${library}`] || null;
  const hasLabels = Object.keys(D.labels).length > 0;
  const what = (fmt, role, library) => W.what(tagOf(fmt, role, library),
                                              labelOf(fmt, role, library));
  const hasModel = Object.keys(D.pairings).length > 0;
  const holds = wbHolds(D, what);
  const evidence = wbEvidence(D, what);
  const sections = wbSections(D, what);

  // ---- the calculator -------------------------------------------------------------------
  const state = {caseKey: D.default_case, linkName: D.default_link, custom: null, stack: "",
                 format: "all", compression: "all", top: 20};
  const pairingCache = {};

  function pairingsOf(caseKey) {
    if (!pairingCache[caseKey]) {
      const [dataset, rows] = caseKey.split("/");
      pairingCache[caseKey] = (D.pairings[caseKey] || []).map((r) => ({
        format: D.strings[r[0]], serializer: D.strings[r[1]], parser: D.strings[r[2]],
        compression: D.strings[r[3]], wire_bytes: r[4], encode: r[5], decode: r[6],
        compress: r[7], decompress: r[8], cpu_low: r[9], cpu_high: r[10], dataset,
        rows: Number(rows),
        // A call with a part racing settled: its interval's coverage, then [what, rounds,
        // why] of each settled part (data.py's _pairings).
        cpu_coverage: r.length > 11 ? r[11] : null,
        settled: r.slice(12).map((i) => D.settled[i])}));
    }
    return pairingCache[caseKey];
  }

  function currentLink() {
    const base = linksByName[state.linkName];
    const link = state.custom ? Object.assign({}, base, state.custom, {name: "custom"}) : base;
    if (!state.stack) return link;
    // Another stack: its handshake round trips and its pricing, as links.with_stack.
    const spec = D.stacks[state.stack];
    return Object.assign({}, link, {stack: state.stack, stack_spec: spec,
                                    tls_handshake_rtts: spec.tls_handshake_rtts});
  }

  function pairingLabel(p) {
    const compression = p.compression === "none" ? "" : ` + ${p.compression}`;
    return `${p.format} ${p.serializer} → ${p.parser || "(no decoder)"}${compression}`;
  }

  // The mark of a call with a part racing settled: "settled after N rounds" and its own
  // interval, labelled with its coverage; which parts and why on hover. "" for another call.
  // The interval shown is the CPU's (the total's less the wire, which the model computes):
  // on a slow link the total's would read as one figure at three digits.
  function settledMark(p, parts) {
    if (!parts.settled) return "";
    const after = Math.min(...p.settled.map((s) => s[1]));
    const interval = parts.total_low == null ? "" :
      `: CPU ${F.seconds(parts.total_low - parts.wire)} – ` +
      `${F.seconds(parts.total_high - parts.wire)}` +
      (p.cpu_coverage == null ? "" : ` (${F.percent(p.cpu_coverage, 0)})`);
    const why = p.settled.map(([part, rounds, by]) => `${part}: settled after ${rounds} ` +
                                                       `rounds; ${by}`).join("\n");
    return W.settledMark(`settled after ${after} rounds${interval}`, why);
  }

  function pairingWhat(p) {
    const writer = labelOf(p.format, "encode", p.serializer);
    const reader = p.parser ? labelOf(p.format, "decode", p.parser) : null;
    if (!writer && !reader) return "-";
    const tag = `${tagOf(p.format, "encode", p.serializer) || "-"} → ` +
                `${p.parser ? tagOf(p.format, "decode", p.parser) || "-" : "-"}`;
    return W.what(tag, `writer: ${writer || "-"}; reader: ${reader || "-"}`);
  }

  function linkSummary(link) {
    const knobs = [F.bandwidth(link.bandwidth_bps), `RTT ${F.seconds(link.rtt_s)}`,
                   `${link.connection} connection`];
    if (link.stack) knobs.push(`stack ${link.stack}`);
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

  // The fastest call of each format, fastest first (data.best_per_format does the same in
  // Python): every format of the payload is in the page's first table and chart.
  function bestPerFormat(ranked) {
    const best = new Map();
    for (const [p, parts] of ranked) if (!best.has(p.format)) best.set(p.format, [p, parts]);
    return [...best.values()];
  }

  function renderGlance() {
    const rows = D.links.map((link) => {
      const ranked = wbModel.rank(filtered(state.caseKey), link);
      if (!ranked.length) return {cells: [link.name, "-", "-", "-", "-", "-", "-"]};
      const [p, parts] = ranked[0];
      const ties = ranked.slice(1).filter(([, other]) => wbModel.tied(parts, other)).length;
      const mark = settledMark(p, parts);
      return {attrs: {class: link.name === state.linkName && !state.custom ? "chosen" : "link-row",
                      "data-link": link.name,
                      onclick: () => chooseLink(link.name)},
              cells: [[link.name, {title: link.description || ""}], linkSummary(link),
                      [[pairingLabel(p) + (ties ? ` (tied with ${ties} more)` : ""),
                        mark ? " " : "", mark], {}],
                      [F.seconds(parts.cpu), {"data-seconds": parts.cpu}],
                      [F.seconds(parts.wire), {"data-seconds": parts.wire}],
                      [F.seconds(parts.total), {"data-seconds": parts.total}],
                      F.percent(parts.cpu_share)]};
    });
    fill("glance", table(["link profile", "link", "fastest call", "CPU", "wire", "total",
                          "CPU share"], rows, [0, 0, 0, 1, 1, 1, 1]));
  }

  function renderBest(ranked, link) {
    const best = bestPerFormat(ranked);
    const fastest = best[0][1].total;
    // Against the fastest: its ratio, or "tied" where the two intervals overlap; a call with
    // a settled part is never tied, and is marked with its own interval.
    const against = (p, parts, i) => {
      const ratio = i > 0 && wbModel.tied(best[0][1], parts) ? "tied" :
        `${(parts.total / fastest).toFixed(2)}x`;
      const mark = settledMark(p, parts);
      return mark ? [[ratio, " ", mark], {}] : ratio;
    };
    // The total and its ratio first: on a phone they are what the first screen shows.
    fill("best-formats", table(
      ["format", "fastest call", "total", "× fastest", "CPU", "wire", "CPU share", "wire bytes",
       ...(hasLabels ? ["what it does"] : [])],
      best.map(([p, parts], index) => ({
        attrs: {"data-format": p.format, "data-pairing": pairingLabel(p),
                "data-total": parts.total},
        cells: [p.format, `${p.serializer} → ${p.parser || "(no decoder)"}` +
                (p.compression === "none" ? "" : ` + ${p.compression}`),
                ...["total", "cpu", "wire"].map((key) =>
                  [F.seconds(parts[key]), {"data-seconds": parts[key]}])
                  .flatMap((cell, i) => i === 0 ?
                    [cell, against(p, parts, index)] : [cell]),
                F.percent(parts.cpu_share), F.count(p.wire_bytes),
                ...(hasLabels ? [pairingWhat(p)] : [])]})),
      [0, 0, 1, 1, 1, 1, 1, 1, 0]));
    fill("split-caption", `Where one call's time goes: the fastest call of each format on ` +
                          `${link.name}`);
    const labels = W.barLabels("split-box", best.map(([p]) => pairingLabel(p)), 16, 100);
    draw("split-chart", {
      type: "bar",
      data: {labels,
             datasets: PARTS.filter(([key]) => best.some(([, parts]) => parts[key] > 0))
               .map(([key, title], i) => ({label: title, backgroundColor: W.color(i),
                                           borderColor: W.color(i),
                                           data: best.map(([, parts]) => parts[key] * 1e3)}))},
      options: {indexAxis: "y",
                scales: {x: {stacked: true, title: {display: true, text: "ms per call (linear)"}},
                         y: {stacked: true, ticks: W.ticks}},
                plugins: {legend: {labels: {boxWidth: 12, font: {size: 11}}}}}});
  }

  function renderRanking() {
    const link = currentLink();
    const ranked = wbModel.rank(filtered(state.caseKey), link);
    const [dataset, rows] = state.caseKey.split("/");
    $("model-part").hidden = !ranked.length && !pairingsOf(state.caseKey).length;
    if (!pairingsOf(state.caseKey).length) {
      fill("model-none", el("p", {}, `No link model at ${dataset} ${rows} rows: the run ` +
                                     "holds no encode of this payload with a wire_bytes counter."));
      W.clear("split-chart");
      W.clear("bandwidth-chart");
      $("bandwidth-section").hidden = true;
      return;
    }
    fill("model-none");
    $("bandwidth-section").hidden = false;
    if (!ranked.length) {
      fill("answer", "No pairing of this payload matches the filters.");
      fill("answer-note");
      fill("best-formats");
      fill("ranking");
      return;
    }
    const [best, bestParts] = ranked[0];
    const tiedWith = ranked.slice(1).filter(([, parts]) => wbModel.tied(bestParts, parts)).length;
    const settledCalls = ranked.filter(([, parts]) => parts.settled).length;
    const bestMark = settledMark(best, bestParts);
    fill("answer",
      el("p", {class: "headline"}, `${dataset}, ${Number(rows).toLocaleString("en-US")} rows, on `,
         el("b", {}, state.custom ? `your link (${linkSummary(link)})` : link.name), ": ",
         el("b", {id: "best-pairing"}, pairingLabel(best)), bestMark ? [" (", bestMark, ")"] : "",
         ` is fastest at `,
         el("b", {}, F.seconds(bestParts.total)), ` per call: CPU ${F.seconds(bestParts.cpu)} `,
         `(${F.percent(bestParts.cpu_share)}), wire ${F.seconds(bestParts.wire)}. `,
         `CPU and wire cost the same at ${crossoverText(best, link)} on this link's RTT.`,
         tiedWith ? ` Tied with ${tiedWith} other call${tiedWith === 1 ? "" : "s"}: their ` +
                    `95 % intervals overlap, so the data cannot rank them.` : ""));
    // What was ranked and on which link, after the table of each format's fastest call:
    // above it, it pushed the table's end out of a desktop's first screen.
    fill("answer-note",
         `${ranked.length} pairings ranked (format × serializer × parser × compression); `,
         settledCalls ? `${settledCalls} with a part racing settled (marked: slower by a ` +
                        "margin, never tied); " : "",
         link.name === "custom" ? "custom: " : "",
         linkSummary(link), ".");
    renderBest(ranked, link);
    const shown = state.top === "all" ? ranked : ranked.slice(0, state.top);
    fill("ranking-count", `${ranked.length}`);
    const rowsOut = shown.map(([p, parts], i) => ({
      attrs: {"data-pairing": pairingLabel(p), "data-total": parts.total},
      cells: [i + 1, parts.settled ?
                [[pairingLabel(p), el("span", {class: "settled-line"}, settledMark(p, parts))],
                 {"data-settled": p.settled.length}] : pairingLabel(p),
              ...["total", "encode", "compress", "wire", "decompress", "decode", "cpu"]
                .map((key) => [F.seconds(parts[key]), {"data-seconds": parts[key]}]),
              F.percent(parts.cpu_share), F.count(p.wire_bytes), parts.round_trips,
              i < 60 ? crossoverText(p, link) : "(top 60 only)",
              ...(hasLabels ? [pairingWhat(p)] : [])]}));
    const headers = ["#", "format serializer → parser + compression", "total", "encode",
                     "compress", "wire", "decompress", "decode", "CPU", "CPU share",
                     "wire bytes", "RTTs", "CPU = wire at",
                     ...(hasLabels ? ["what it does"] : [])];
    const numeric = headers.map((h, i) => i === 0 || (i > 1 && h !== "what it does"));
    fill("ranking", table(headers, rowsOut, numeric),
         shown.length < ranked.length ?
           el("p", {class: "small"}, `${ranked.length - shown.length} slower pairings not shown.`) :
           "");
    renderBandwidth(link);
  }

  // The lines of the time-against-bandwidth chart: the fastest call of each format, or on
  // request (#bandwidth-lines) the fastest of each format and compression. Every pairing of
  // the whole suite's format would be a hundred lines that hide each other.
  function bandwidthSeries(link) {
    const byCompression = $("bandwidth-lines").value === "compression";
    const best = new Map();
    for (const [p] of wbModel.rank(filtered(state.caseKey), link)) {
      const key = byCompression ? `${p.format}/${p.compression}` : p.format;
      if (!best.has(key)) best.set(key, p);
    }
    return [[...best.values()], byCompression];
  }

  function renderBandwidth(link) {
    const [series, byCompression] = bandwidthSeries(link);
    const low = 1e5, high = 1e11, points = 61;
    const grid = Array.from({length: points}, (_, i) => low * (high / low) ** (i / (points - 1)));
    // The legend names each line's pairing while that takes a few rows; with many lines
    // (17 formats x 6 compressions in the whole suite) it names the format and compression,
    // which is what tells the lines apart, and the tooltip names the pairing.
    const size = 10, padding = 8;
    let texts = series.map(pairingLabel);
    let legend = W.legendFit("bandwidth-box", texts, size, padding);
    const named = legend.fits && legend.rows <= 8;
    if (!named) {
      texts = series.map((p) => p.compression === "none" ? p.format :
                                `${p.format} + ${p.compression}`);
      legend = W.legendFit("bandwidth-box", texts, size, padding);
    }
    $("bandwidth-box").style.height = `${360 + legend.height}px`;
    fill("bandwidth-caption", `Total time against bandwidth at ${link.name}'s RTT ` +
         `${F.seconds(link.rtt_s)} and knobs: the fastest call of each format` +
         `${byCompression ? " and compression" : ""}` +
         `${named ? "" : " (a line's pairing in its tooltip)"}`);
    draw("bandwidth-chart", {
      type: "line",
      data: {datasets: series.map((p, i) => ({
        label: pairingLabel(p), borderColor: W.color(i), backgroundColor: W.color(i),
        pointStyle: W.marker(i), borderWidth: 1.5,
        pointRadius: (ctx) => ctx.dataIndex % 10 === 0 ? 4 : 0,
        data: grid.map((bw) => ({x: bw, y: wbModel.call(p, link, bw).total * 1e3}))}))},
      options: {parsing: false,
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "bandwidth, bit/s (log scale)"}},
                         y: {type: "logarithmic", title: {display: true,
                                                          text: "ms per call (log scale)"}}},
                plugins: {legend: {
                  position: "bottom", maxHeight: legend.height,
                  labels: {usePointStyle: true, font: {size}, padding,
                           generateLabels: (chart) =>
                             Chart.defaults.plugins.legend.labels.generateLabels(chart)
                               .map((item) => Object.assign(item,
                                                            {text: texts[item.datasetIndex]}))}}}}});
  }

  function setLink(name) {
    state.linkName = name;
    state.custom = null;
    $("link").value = name;
    const link = linksByName[name];
    $("bandwidth").value = +(link.bandwidth_bps / 1e6).toPrecision(6);
    $("rtt").value = +(link.rtt_s * 1e3).toPrecision(6);
    $("connection").value = link.connection;
  }

  function chooseLink(name) {
    setLink(name);
    renderCalculator();
  }

  function renderCalculator() {
    if (!hasModel || !state.caseKey) return;
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
    caseSelect.addEventListener("change", () => { state.caseKey = caseSelect.value; renderAll(); });
    // A run without an encode has nothing to model: the link's controls and the calculator
    // give way to one sentence saying so (the top of the page says it too).
    for (const node of document.querySelectorAll(".model-only")) node.hidden = !hasModel;
    // (The top of the page says why: "no link model: ...".)
    if (!hasModel) {
      $("model-part").hidden = true;
      $("bandwidth-section").hidden = true;
      return;
    }
    for (const link of D.links) {
      $("link").append(el("option", {value: link.name, title: linkSummary(link)}, link.name));
    }
    const formats = [...new Set(Object.values(D.pairings).flat().map((r) => D.strings[r[0]]))];
    const compressions = [...new Set(Object.values(D.pairings).flat().map((r) => D.strings[r[3]]))];
    for (const f of formats.sort()) $("format").append(el("option", {value: f}, f));
    for (const c of compressions.sort()) $("compression").append(el("option", {value: c}, c));
    for (const name of Object.keys(D.stacks || {})) {
      const spec = D.stacks[name];
      $("stack").append(el("option", {value: name, title: spec.measured}, name));
    }
    $("stack").addEventListener("change", () => { state.stack = $("stack").value;
                                                  renderCalculator(); });
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
    $("bandwidth-lines").addEventListener("change", () => renderBandwidth(currentLink()));
    $("top").addEventListener("change", () => {
      state.top = $("top").value === "all" ? "all" : Number($("top").value);
      renderRanking();
    });
    if (D.notes.length) {
      fill("notes", el("ul", {}, D.notes.map((note) => el("li", {}, note))));
    }
  }

  function renderCaseNames() {
    const name = $("case").selectedOptions[0];
    for (const node of document.querySelectorAll(".case-name")) {
      node.textContent = name ? name.textContent : "(no payload in this run)";
    }
  }

  function renderAll() {
    renderCalculator();
    if (state.caseKey) evidence.render(state.caseKey);
    renderCaseNames();
  }

  // The "All tables" appendix (#wb-appendix, gzipped apart from the data) is unpacked and
  // built when its section is first opened: most readers never open it, and unpacking and
  // building its tables (3.9 MB of HTML for a whole-suite run) held up every load.
  function setupAppendix() {
    const details = $("appendix").closest("details");
    let built = false;
    const build = async () => {
      if (built || !details.open) return;
      built = true;
      $("appendix").innerHTML = (await W.unpack("wb-appendix")) || "<p>No further tables.</p>";
      window.wbAppendixReady = true;
    };
    details.addEventListener("toggle", build);
    build();
  }

  // Links to sections the run has nothing for are not offered.
  function trimNav() {
    for (const a of document.querySelectorAll("nav a")) {
      const id = a.getAttribute("href").slice(1);
      const section = $(id);
      a.hidden = !section || section.hidden || (id === "answer-section" && !hasModel);
    }
  }

  // With a link model the calculator's answer leads and the competitors follow it; without
  // one the competitors are the answer.
  if (hasModel) $("answer-section").after($("comparison-section"));
  setupControls();
  evidence.setup();
  wbPayload(D).render();
  wbAsFormats(D).render();
  holds.renderHolds();
  holds.renderComparison();
  sections.renderContext();  // the machine's line and warnings under the page's title
  if (hasModel && state.linkName) setLink(state.linkName);
  renderCalculator();
  renderCaseNames();
  // The first view is drawn: the browser paints it before the evidence below it, which
  // took as long again, is built (after the next frame, or 100 ms in a hidden tab that
  // draws no frames).
  performance.mark("wb-first-view");
  await new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
  evidence.renderSizes();
  sections.renderConformance();
  sections.renderNoise();
  sections.renderWire();
  sections.renderScenarios();
  setupAppendix();
  if (state.caseKey) evidence.render(state.caseKey);
  trimNav();
  window.wbReady = true;
})();
