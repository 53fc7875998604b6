// The comparison page: machine and build differences first, then new/old per benchmark with
// its interval, grouped by format and operation. Data: tools/wbtools/page/compare_data.py.
"use strict";

(() => {
  const D = JSON.parse(document.getElementById("wb-data").textContent);
  const F = wbFormat;
  const $ = (id) => document.getElementById(id);
  const esc = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/"/g, "&quot;");
  const ratio = (r) => r == null ? "-" : `${r.toFixed(3)}x`;
  const groups = {};
  for (const row of D.rows) (groups[`${row.format} ${row.op}`] ||= []).push(row);
  const keys = Object.keys(groups).sort();

  $("differences").innerHTML = D.differences ||
    "<p>The two files record the same machine and build.</p>";
  const counts = {};
  for (const row of D.rows) counts[row.verdict] = (counts[row.verdict] || 0) + 1;
  $("summary").innerHTML = `<p>${D.rows.length} benchmarks timed in both files ` +
    `(<code>${esc(D.old)}</code> → <code>${esc(D.new)}</code>, ${D.clock}_time): ` +
    ["slower", "faster", "no significant change", "settled", "too few repetitions"]
      .filter((v) => v !== "settled" || counts[v])
      .map((v) => `<b>${counts[v] || 0}</b> ${v}`).join(", ") + ". " +
    (D.only_old.length ? `${D.only_old.length} only in the old file. ` : "") +
    (D.only_new.length ? `${D.only_new.length} only in the new file.` : "") + "</p>" +
    (counts["too few repetitions"] ? "<p class=\"small\">Too few repetitions: fewer than 3 " +
     "against 3 gives no 95 % interval (`wirebench bench --repetitions N`).</p>" : "") +
    (counts.settled ? "<p class=\"small\">Settled: racing stopped the benchmark in either " +
     "run after its first rounds (it lost its comparison there by a margin), too few for a " +
     "95 % interval: its interval is the widest its rounds give, shown with its coverage, " +
     "and it is never called slower, faster or unchanged. Why it was settled: on hover.</p>" :
     "");
  // An interval below 95 % (a settled benchmark's) says its coverage.
  const interval = (r) => r.low == null ? "-" : `${ratio(r.low)} – ${ratio(r.high)}` +
    (r.coverage != null && r.coverage < 0.95 ? ` (${F.percent(r.coverage, 0)})` : "");
  const verdictCell = (r) => r.verdict === "settled" ?
    `<td data-verdict="settled"><span class="settled" title="${esc(r.settled || "")}">` +
    "settled</span></td>" :
    `<td data-verdict="${esc(r.verdict)}" class="${r.verdict === "slower" ? "bad" :
      r.verdict === "faster" ? "good" : ""}">${r.verdict}</td>`;

  const tableOf = (rows) => "<div class=\"scroll\"><table><thead><tr><th>benchmark</th>" +
    "<th class=\"num\">reps old/new</th><th class=\"num\">old</th><th class=\"num\">new</th>" +
    "<th class=\"num\">new/old</th><th class=\"num\">interval (95 % unless said)</th>" +
    "<th class=\"num\">U-test p</th><th>verdict</th></tr></thead><tbody>" +
    rows.map((r) => `<tr data-name="${esc(r.name)}"><td>${esc(r.name)}</td>` +
      `<td class="num">${r.n_old}/${r.n_new}</td><td class="num">${F.seconds(r.old)}</td>` +
      `<td class="num">${F.seconds(r.new)}</td><td class="num">${ratio(r.ratio)}</td>` +
      `<td class="num">${interval(r)}</td>` +
      `<td class="num">${r.p == null ? "-" : r.p.toFixed(4)}</td>` +
      verdictCell(r) + "</tr>").join("") + "</tbody></table></div>";
  $("groups").innerHTML = keys.map((key) => `<details><summary>${esc(key)}: ` +
    `${groups[key].length} benchmarks, ` +
    `${groups[key].filter((r) => r.verdict === "slower").length} slower, ` +
    `${groups[key].filter((r) => r.verdict === "faster").length} faster` +
    (groups[key].some((r) => r.verdict === "settled") ?
      `, ${groups[key].filter((r) => r.verdict === "settled").length} settled` : "") +
    "</summary>" +
    tableOf(groups[key])).join("") + "</details>";

  const charts = {};
  window.wbCharts = charts;
  function drawGroup() {
    const rows = [...(groups[$("group").value] || [])].sort((a, b) => b.ratio - a.ratio)
      .slice(0, 60);
    $("ratio-box").style.height = `${100 + rows.length * 18}px`;
    if (charts.ratio) charts.ratio.destroy();
    charts.ratio = new Chart($("ratio-chart").getContext("2d"), {
      type: "bar",
      data: {labels: rows.map((r) => r.name + (r.verdict === "settled" ? " (settled)" : "")),
             datasets: [
        {type: "bar", label: rows.some((r) => r.verdict === "settled") ?
           "95 % interval of new/old (settled: the widest its rounds give)" :
           "95 % interval of new/old", data: rows.map((r) =>
          r.low == null ? null : [r.low, r.high]), backgroundColor: "rgba(31, 119, 180, 0.35)",
         borderColor: "#1f77b4", borderWidth: 1, barPercentage: 0.6, order: 2},
        {type: "line", label: "new/old (median of the pairwise ratios)", showLine: false,
         pointStyle: "rectRot", pointRadius: 5, borderColor: "#d62728",
         backgroundColor: "#d62728", indexAxis: "y", data: rows.map((r) => r.ratio), order: 1}]},
      options: {animation: false, responsive: true, maintainAspectRatio: false, indexAxis: "y",
                scales: {x: {type: "logarithmic", title: {display: true,
                                                          text: "new ÷ old (log scale; < 1 faster)"}},
                         y: {ticks: {autoSkip: false, font: {size: 9}}}},
                plugins: {legend: {labels: {usePointStyle: true}},
                          title: {display: true, text: rows.length < groups[$("group").value].length ?
                                  "the 60 largest ratios of the group" : "every benchmark of the group"}}}});
  }
  for (const key of keys) {
    const option = document.createElement("option");
    option.value = key;
    option.textContent = `${key} (${groups[key].length})`;
    $("group").append(option);
  }
  $("group").addEventListener("change", drawGroup);
  if (keys.length) drawGroup();
  window.wbReady = true;
})();
