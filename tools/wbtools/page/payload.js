// The top of a payload run's page (./wirebench bench --payload, docs/payload.md): per file,
// the answer first (the fastest parser and every parser tied with it by the paired 95 %
// intervals), then every parser's row with its verdict (accepted, or rejected with the
// library's error and byte offset; marked when it accepts what others reject or reads the
// file differently), its peak heap and allocations for one parse, and the file's size raw and after each compressor. The calculator
// below prices each parser and compressor on every link. Data: D.payload
// (tools/wbtools/results/payload.py).
"use strict";

const wbPayload = (D) => {
  const F = wbFormat;
  const {el, table, fill, $} = wbDom;

  function interval(p) {
    return p.low == null ? "–" : `${p.low.toFixed(2)}–${p.high.toFixed(2)}`;
  }

  // The memory run's figure for one parse, "–" where the run has none.
  function memory(value, format) {
    return value == null ? "–" : format(value);
  }

  function verdictCell(p) {
    const offset = p.offset >= 0 && !p.error.includes(`byte ${p.offset}`) ?
      ` (byte ${p.offset})` : "";
    // A short file's values as the parser read them (the verdict's canonical form).
    const text = p.outcome + (p.error ? `: ${p.error}${offset}` : "") +
      (p.values ? `: ${p.values}` : "");
    return [text, {class: p.outcome === "accepted" ? "verdict-ok" : "verdict-bad"}];
  }

  function renderFile(file) {
    const [first, ...ties] = file.fastest;
    const answer = first ?
      el("p", {class: "payload-answer"}, el("b", {}, `${file.name}: fastest ${file.op} is `),
         el("b", {class: "fastest"}, first),
         ties.length ? `, tied with ${ties.join(", ")} (their 95 % intervals hold 1)` :
           " (no other parser's interval reaches it)", ".") :
      el("p", {class: "payload-answer"}, el("b", {}, `${file.name}: no parser accepted it.`));
    const about = el("p", {class: "small"},
                     `${F.bytes(file.bytes)} (${F.count(file.bytes)} bytes), ${file.kind}; `,
                     "SHA-256 ", el("code", {class: "filter"}, file.sha256), "; sizes: ",
                     file.sizes.map(([codec, size]) => `${codec} ${F.bytes(size)}`).join(", "),
                     ".");
    const rows = file.parsers.map((p) => ({cells: [
      p.library, p.time == null ? "not timed" : F.seconds(p.time),
      p.ratio == null ? "–" : `${p.ratio.toFixed(2)}×`, interval(p), p.verdict,
      memory(p.peak, F.bytes), memory(p.allocs, F.count), verdictCell(p), p.mark]}));
    return el("div", {class: "payload-file"}, answer, about,
              table(["library", "time", "× fastest", "95 % interval", "timing", "peak heap",
                     "allocations", "verdict", "marked"], rows,
                    [false, true, true, true, false, true, true, false, false]));
  }

  function render() {
    const section = $("payload-section");
    if (!D.payload || !D.payload.length) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    fill("payload", D.payload.map(renderFile));
  }

  return {render};
};
