// The top of the report page: what the run holds and what it does not (so a run of two
// decoders says at once that it has no link model), and for a focused run its competitors
// side by side, each against the fastest with the ratio's 95 % interval
// (tools/wbtools/results/holds.py computes them with stats.ratio_interval).
"use strict";

const wbHolds = (D, what) => {
  const F = wbFormat;
  const W = wbDom;
  const {el, table, fill, $} = W;
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
                     ": ", H.summary), coverage, missing, racing());
  }

  // The run's racing rule (its context's racing line) and what it settled: a setting of
  // the run that changes how its rows read.
  function racing() {
    const rule = Object.fromEntries(D.context).racing;
    if (!rule && !D.settled.length) return "";
    return el("p", {class: "small racing"}, el("b", {}, "Racing: "),
              D.settled.length ? `${F.count(D.settled.length)} competitor` +
                `${D.settled.length === 1 ? " was" : "s were"} settled, marked “settled after ` +
                "N rounds” below. " : "no competitor was settled. ",
              rule ? `The rule: ${rule}.` : "");
  }

  // How a settled competitor's rows read, for the explanations of the method: its ratio and
  // time intervals are the min–max of its rounds, at the coverage that has.
  function racingNote() {
    const settled = D.throughput.filter((t) => t.settled != null && t.coverage != null);
    if (!settled.length) return "";
    const examples = [...new Map(settled.map((t) => [D.settled[t.settled][1],
                                                      t.coverage])).entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([after, coverage]) => `${F.percent(coverage, 0)} for ${after} rounds`);
    return " Racing stops a competitor that lost to its group's leader by more than a margin " +
      "in each of its first rounds: it is marked “settled after N rounds” (why on hover), " +
      "its intervals are the min–max of those rounds, at the lower coverage that has " +
      `(${examples.join(", ")}), and it is never called tied.`;
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
      if (t.settled != null) {
        const [, after] = D.settled[t.settled];
        const interval = t.ratio_low == null ? "" :
          `: its ${F.percent(t.ratio_coverage, 0)} interval, the min–max of its rounds, ` +
          `${t.ratio_low.toFixed(2)} – ${t.ratio_high.toFixed(2)}`;
        return `${t.library} takes ${t.ratio.toFixed(2)}x as long (settled after ${after} ` +
          `rounds${interval})`;
      }
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
    // A settled competitor: a mark for a verdict, its intervals labelled with their coverage.
    const settled = (t) => t.settled != null ? D.settled[t.settled] : null;
    const verdict = (t) => settled(t) ?
      [W.settledMark(`settled after ${settled(t)[1]} rounds`, settled(t)[2]),
       {"data-verdict": "settled"}] :
      [t.verdict, {class: t.verdict === "slower" ? "" : "good", "data-verdict": t.verdict}];
    const rows = group.map((t) => ({attrs: {"data-library": t.library}, cells: [
      t.library, [F.seconds(t.median), {"data-seconds": t.median}],
      t.ratio == null ? "-" : [`${t.ratio.toFixed(2)}x`, {"data-ratio": t.ratio}],
      t.ratio_low == null ? "-" : [`${t.ratio_low.toFixed(2)} – ${t.ratio_high.toFixed(2)}` +
                                     (settled(t) ? ` (${F.percent(t.ratio_coverage, 0)})` : ""),
                                   {"data-low": t.ratio_low, "data-high": t.ratio_high}],
      t.verdict == null ? "-" : verdict(t),
      t.low == null ? "-" : `${F.seconds(t.low)} – ${F.seconds(t.high)}` +
        (settled(t) ? ` (min–max, ${F.percent(t.coverage, 0)})` :
         t.interval === "minmax" ? " (min–max)" : ""),
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
            (D.in_rounds ? "is the median of the two's ratios round by round, its interval " +
                           "that median's 95 % interval (order statistics)" :
                           "is the median of the pairwise ratios of their repetitions, its " +
                           "interval the 95 % interval the Mann-Whitney U-test inverts") +
            "; an interval that holds 1 is a tie." + racingNote()),
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
