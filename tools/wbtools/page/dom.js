// What every part of the report page builds with: elements, tables, charts, colours, the
// short "what it does" tags, and chart labels that fit a phone's width.
"use strict";

const wbDom = (() => {
  const $ = (id) => document.getElementById(id);
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
  // Tick labels of the category axes, px: the width a label may take is measured in it.
  const TICK_FONT = 10;

  const charts = {};

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value == null) continue;
      if (key === "class") node.className = value;
      else if (key === "title") node.title = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child == null || child === "") continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function table(headers, rows, numeric) {
    // rows: {cells, attrs}; a cell is text, a node, or [text or node, attrs]
    const head = el("tr", {}, headers.map((h, i) =>
      el("th", {class: numeric && numeric[i] ? "num" : null}, h)));
    const body = rows.map((row) => el("tr", row.attrs || {}, row.cells.map((cell, i) => {
      const [text, attrs] = Array.isArray(cell) ? cell : [cell, {}];
      const cls = [numeric && numeric[i] ? "num" : null, attrs.class].filter(Boolean).join(" ");
      return el("td", Object.assign({}, attrs, {class: cls || null}), text);
    })));
    return el("div", {class: "scroll"}, el("table", {}, el("thead", {}, head),
                                             el("tbody", {}, body)));
  }

  function fill(id, ...nodes) {
    const node = $(id);
    node.replaceChildren(...nodes.flat().filter((n) => n != null && n !== ""));
    return node;
  }

  // A label as lines of at most `max` characters, broken at spaces: Chart.js draws an array
  // label as lines, so a long pairing name wraps instead of running off the canvas' left edge.
  function wrap(text, max) {
    if (text.length <= max) return text;
    const lines = [];
    let line = "";
    for (const word of text.split(" ")) {
      if (line && line.length + 1 + word.length > max) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  // Characters a category label may have per line in a chart box of this width: the axis
  // takes at most about 40 % of the canvas.
  function labelWidth(box) {
    const width = $(box).clientWidth || 600;
    return Math.max(14, Math.floor((width * 0.4) / (TICK_FONT * 0.62)));
  }

  // Horizontal bars with wrapped labels: every row of the category axis gets the same
  // height, so the box grows with the most lines one label takes.
  function barLabels(box, labels, perRow = 14, extra = 90) {
    const max = labelWidth(box);
    const wrapped = labels.map((label) => wrap(label, max));
    const lines = Math.max(1, ...wrapped.map((w) => Array.isArray(w) ? w.length : 1));
    const row = Math.max(perRow, lines * (TICK_FONT + 2) + 6);
    $(box).style.height = `${extra + labels.length * row}px`;
    return wrapped;
  }

  // A bottom legend as Chart.js 3 lays it out: entries (a point-style box, half the font's
  // size, the text) fill rows of the canvas' width, each row the font's size plus the
  // padding tall. Chart.js gives a legend at most half the chart unless told its height, so
  // this measures it for the chart's legend.maxHeight and the box's height: whole at any
  // width. fits: every entry narrower than the canvas.
  function legendFit(box, texts, size, padding) {
    const width = $(box).clientWidth || 600;
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = Chart.helpers.toFont({size}).string;
    let rows = 0, line = 0, fits = true;
    texts.forEach((text, i) => {
      const item = size * 1.5 + ctx.measureText(text).width;
      fits = fits && item + 2 * padding <= width;
      if (i === 0 || line + item + 2 * padding > width) {
        rows += 1;
        line = 0;
      }
      line += item + padding;
    });
    return {rows, fits, height: rows * (size + padding) + padding + 12};
  }

  function draw(id, config) {
    if (charts[id]) charts[id].destroy();
    config.options = Object.assign({animation: false, responsive: true,
                                    maintainAspectRatio: false}, config.options || {});
    charts[id] = new Chart($(id).getContext("2d"), config);
    return charts[id];
  }

  function clear(id) {
    if (charts[id]) {
      charts[id].destroy();
      delete charts[id];
    }
  }

  // A chart box shown with its chart, or hidden with a sentence in its place.
  function showBox(box, shown, noteId, note) {
    $(box).hidden = !shown;
    if (noteId) fill(noteId, shown ? "" : el("p", {}, note));
  }

  const ticks = {autoSkip: false, font: {size: TICK_FONT}};

  // "What it does" as a short tag; the full text on hover (title) and on a tap (details).
  function what(tag, full) {
    if (!full) return "-";
    return [el("details", {class: "tag"}, el("summary", {title: full}, tag || full),
               el("div", {class: "full"}, full)), {class: "what"}];
  }

  // A row racing settled (benchmarks/race.hpp): a mark that says so in words, and why (the
  // leader and the margin it lost by) on hover.
  function settledMark(text, why) {
    return el("span", {class: "settled", title: why || null}, text);
  }

  // Text that page/build.py gzipped and base64-encoded into a script element, unpacked with
  // the browser's DecompressionStream; "" for an empty element.
  async function unpack(id) {
    const text = atob(document.getElementById(id).textContent.trim());
    if (!text) return "";
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const stream = new Response(bytes).body.pipeThrough(new DecompressionStream("gzip"));
    return new TextDecoder().decode(await new Response(stream).arrayBuffer());
  }

  // The page's data object, gzipped (the JSON of a whole-suite run is 7.2 MB, most of a
  // page a browser had to read before drawing a thing).
  async function data(id = "wb-data") {
    return JSON.parse(await unpack(id));
  }

  return {$, COLORS, color, marker, charts, el, table, fill, wrap, barLabels, legendFit,
          draw, clear, showBox, ticks, what, settledMark, unpack, data};
})();
