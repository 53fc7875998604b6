// A payload run with --as-formats (docs/payload.md, "As other formats"): per feed, the
// answer as measured (the smallest format, the fastest to decode, against the file as it
// came), then one row per format and library: the format's payload raw and after each
// compressor, the encode and decode time with its 95 % interval; then the formats that could
// not carry the rows, with the type they lack and why. Data: D.as_formats
// (tools/wbtools/results/as_formats.py).
"use strict";

const wbAsFormats = (D) => {
  const F = wbFormat;
  const {el, table, fill, $} = wbDom;

  function timed(t) {
    if (!t) return "–";
    const range = t.low == null ? "" : ` [${F.seconds(t.low)}, ${F.seconds(t.high)}]`;
    return `${F.seconds(t.time)}${range}`;
  }

  function times(ratio, more, less) {
    return ratio >= 1 ? `${ratio.toFixed(2)}× ${more}` : `${(1 / ratio).toFixed(2)}× ${less}`;
  }

  function decodeRatio(r) {
    if (!r) return "–";
    const [point, low, high] = r;
    const range = low == null ? "" : point >= 1 ? ` [${low.toFixed(2)}, ${high.toFixed(2)}]` :
      ` [${(1 / high).toFixed(2)}, ${(1 / low).toFixed(2)}]`;
    return times(point, "faster", "slower") + range;
  }

  function compressed(sizes) {
    return Object.entries(sizes).map(([codec, bytes]) => `${codec} ${F.bytes(bytes)}`)
      .join(", ");
  }

  // One row per library of a format: its encoders (the size of the payload each writes),
  // then its decoders; the format's first row carries its ratios against the file.
  function formatRows(f) {
    const rows = [];
    const count = Math.max(f.encoders.length, f.decoders.length);
    for (let i = 0; i < count; ++i) {
      const enc = f.encoders[i];
      const dec = f.decoders[i];
      rows.push({cells: [
        i === 0 ? el("b", {}, f.format) : "",
        enc ? enc.library : "", enc ? F.count(enc.bytes) : "", enc ? compressed(enc.sizes) : "",
        timed(enc), dec ? dec.library : "", timed(dec),
        i === 0 && f.smaller ? times(f.smaller, "smaller", "larger") : "",
        i === 0 ? decodeRatio(f.decode_ratio) : ""]});
    }
    return rows;
  }

  function renderFeed(feed) {
    const file = feed.file_decode;
    const head = el("p", {class: "small"},
                    `${feed.name}: ${F.count(feed.bytes)} bytes of ${feed.format}, ` +
                    `${F.count(feed.rows)} rows (read by ${feed.rows_from}); compressed: ` +
                    `${compressed(feed.file_sizes)}; its fastest decode ` +
                    (file ? `${file.library} ${timed(file)}.` : "not timed."));
    const rows = feed.formats.flatMap(formatRows);
    const refused = feed.not_carried.map(([format, why]) =>
      el("li", {}, el("b", {}, format), ": not carried: ", why));
    if (feed.not_carried_yet.length)
      refused.push(el("li", {}, "not carried yet (no run-time schema for it in this build): ",
                      feed.not_carried_yet.join(", ")));
    return el("div", {class: "payload-file"},
              el("p", {class: "payload-answer"}, el("b", {}, feed.answer), "."), head,
              table(["format", "encoder", "bytes", "compressed", "encode [95 %]", "decoder",
                     "decode [95 %]", "size vs file", "decode vs file [95 %]"], rows,
                    [false, false, true, false, true, false, true, true, true]),
              refused.length ? el("ul", {class: "small"}, refused) : null);
  }

  function render() {
    const section = $("as-formats-section");
    if (!D.as_formats || !D.as_formats.length) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    fill("as-formats", D.as_formats.map(renderFeed));
  }

  return {render};
};
