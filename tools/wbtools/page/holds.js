// The top of the report page: what the run holds and what it does not (so a run of two
// decoders says at once that it has no link model), and for a focused run its competitors
// side by side, each against the fastest with the ratio's 95 % interval
// (tools/wbtools/holds.py computes them with stats.ratio_interval).
"use strict";

const wbHolds = (D, what) => {
  const F = wbFormat;
  const {el, table, fill, $} = wbDom;
  const H = D.holds;
  // A focused run lists its questions at the top up to this many; a longer one leaves them
  // to the throughput section's table (which has the same ratios).
  const MAX_QUESTIONS = 12;
  const OPS = ["encode", "decode", "parse-only", "decode-new-parser", "decode-cold-cache",
               "route", "compress", "decompress"];
  const ROLE = {"encode": "encode", "route": "route"};

  function renderHolds() {
    // A filter is one long word: it breaks anywhere rather than widen a phone's page.
    const filter = H.filter ? [" (--filter ", el("code", {class: "filter"}, H.filter), ")"] : [];
    const coverage = H.whole_suite ? "" : el("ul", {}, H.coverage.map(([fmt, counts]) =>
      el("li", {}, `${fmt}: ${counts}`)));
    const missing = H.missing.length ?
      el("div", {class: "missing"}, el("b", {}, "Not in this run: "),
         H.missing.join("; "), ".") : "";
    fill("holds", el("p", {class: H.whole_suite ? "small" : "holds-line"}, H.lead, filter,
                     ": ", H.summary), coverage, missing);
  }

  const describe = (t) => {
    const [fmt, dataset, rows] = t.case.split("/");
    const input = t.source ? ` (input: ${t.source}'s bytes)` : "";
    return `${fmt}, ${dataset} ${Number(rows).toLocaleString("en-US")} rows, ${t.op}${input}`;
  };

  // The questions of the run: one payload, one operation, one input each, with every
  // library that answers it.
  function questions() {
    const groups = {};
    for (const t of D.throughput) {
      (groups[`${t.case}|${t.op}|${t.source}`] ||= []).push(t);
    }
    return Object.values(groups).map((g) => g.slice().sort((a, b) => a.median - b.median))
      .sort((a, b) => a[0].case.localeCompare(b[0].case) ||
                      OPS.indexOf(a[0].op) - OPS.indexOf(b[0].op) ||
                      (b[0].source === "reference") - (a[0].source === "reference") ||
                      a[0].source.localeCompare(b[0].source));
  }

  function sentence(group) {
    const [best, ...rest] = group;
    if (!rest.length) {
      return `${best.library}: ${F.seconds(best.median)} per call; no competitor in the run.`;
    }
    const parts = rest.slice(0, 3).map((t) => {
      const interval = t.ratio_low == null ? "no 95 % interval: too few repetitions" :
        `95 % interval ${t.ratio_low.toFixed(2)} – ${t.ratio_high.toFixed(2)}` +
        (t.verdict === "tied" ? ", which holds 1: tied" : "");
      return `${t.library} takes ${t.ratio.toFixed(2)}x as long (${interval})`;
    });
    return `${best.library} is fastest at ${F.seconds(best.median)} per call; ` +
      parts.join("; ") + (rest.length > 3 ? `; ${rest.length - 3} more below` : "") + ".";
  }

  function groupTable(group) {
    // The median and the ratio first: on a phone they are what the first screen shows.
    const rows = group.map((t) => ({attrs: {"data-library": t.library}, cells: [
      t.library, [F.seconds(t.median), {"data-seconds": t.median}],
      t.ratio == null ? "-" : [`${t.ratio.toFixed(2)}x`, {"data-ratio": t.ratio}],
      t.ratio_low == null ? "-" : [`${t.ratio_low.toFixed(2)} – ${t.ratio_high.toFixed(2)}`,
                                   {"data-low": t.ratio_low, "data-high": t.ratio_high}],
      t.verdict == null ? "-" : [t.verdict, {class: t.verdict === "slower" ? "" : "good"}],
      t.low == null ? "-" : `${F.seconds(t.low)} – ${F.seconds(t.high)}` +
        (t.interval === "minmax" ? " (min–max)" : ""),
      what(t.case.split("/")[0], ROLE[t.op] || "decode", t.library)]}));
    return table(["library", "median", "× fastest", "95 % interval", "verdict",
                  "interval of the median", "what it does"], rows, [0, 1, 1, 1, 0, 1, 0]);
  }

  function renderComparison() {
    const section = $("comparison-section");
    const all = H.whole_suite ? [] : questions();
    section.hidden = !all.length;
    if (!all.length) return;
    // Questions with competitors first; benchmarks timed alone get one line, unless the run
    // holds nothing else.
    const groups = all.filter((g) => g.length > 1);
    const alone = groups.length ? all.filter((g) => g.length === 1) : [];
    const shown = (groups.length ? groups : all).slice(0, MAX_QUESTIONS);
    fill("comparison-title", groups.length ? "The competitors side by side" :
                             "What the run times (no competitors)");
    fill("comparison",
         el("p", {class: "small"}, "Each library's cpu time against the fastest's: the ratio " +
            "is the median of the pairwise ratios of their repetitions, its interval the " +
            "95 % interval the Mann-Whitney U-test inverts; an interval that holds 1 is a tie."),
         shown.map((group) => el("div", {class: "question", "data-case": group[0].case,
                                         "data-op": group[0].op},
           el("h3", {}, describe(group[0])),
           el("p", {class: "answer-line"}, sentence(group)),
           group.length > 1 ? groupTable(group) : "")),
         groups.length > shown.length ?
           el("p", {}, `${groups.length - shown.length} more questions: the throughput ` +
                       "section's table has each library against the fastest.") : "",
         alone.length ? el("p", {class: "small alone"}, "Timed alone, with no competitor in " +
           "the run: " + alone.map(([t]) => `${describe(t)}: ${t.library} ` +
                                            `${F.seconds(t.median)}`).join("; ") + ".") : "");
  }

  return {renderHolds, renderComparison};
};
