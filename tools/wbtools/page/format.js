// Number formatting of the page, as tools/wbtools/units.py formats for REPORT.md, so a figure
// reads the same in both.
"use strict";

const wbFormat = (() => {
  // Python's "{:.3g}": three significant digits, no trailing zeros, exponent past 1e±3.
  function g3(value) {
    if (value === 0) return "0";
    const exponent = Math.floor(Math.log10(Math.abs(value)));
    let text = Number(value.toPrecision(3));
    if (exponent < -4 || exponent >= 3) {
      const [mantissa, exp] = value.toExponential(2).split("e");
      const m = String(Number(mantissa));
      const e = Number(exp);
      return `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
    }
    return String(text);
  }

  function seconds(value) {
    if (value == null || Number.isNaN(value)) return "-";
    const magnitude = Math.abs(value);
    for (const [scale, unit] of [[1.0, "s"], [1e-3, "ms"], [1e-6, "us"]]) {
      if (magnitude >= scale) return `${g3(value / scale)} ${unit}`;
    }
    return magnitude > 0 ? `${g3(value / 1e-9)} ns` : "0";
  }

  function bandwidth(bps) {
    if (bps == null || Number.isNaN(bps)) return "-";
    for (const [scale, unit] of [[1e12, "Tbit/s"], [1e9, "Gbit/s"], [1e6, "Mbit/s"],
                                 [1e3, "kbit/s"]]) {
      if (bps >= scale) return `${g3(bps / scale)} ${unit}`;
    }
    return `${g3(bps)} bit/s`;
  }

  function count(value) {
    return value == null ? "-" : Math.round(value).toLocaleString("en-US");
  }

  function percent(fraction, digits = 1) {
    return fraction == null || Number.isNaN(fraction) ? "-" :
      `${(100 * fraction).toFixed(digits)} %`;
  }

  function megabytesPerSecond(bps) {
    return bps == null || Number.isNaN(bps) ? "-" :
      (bps / 1e6).toLocaleString("en-US", {minimumFractionDigits: 1, maximumFractionDigits: 1});
  }

  function bytes(value) {
    if (value == null) return "-";
    for (const [scale, unit] of [[1e9, "GB"], [1e6, "MB"], [1e3, "kB"]]) {
      if (value >= scale) return `${g3(value / scale)} ${unit}`;
    }
    return `${Math.round(value)} B`;
  }

  return { g3, seconds, bandwidth, count, percent, megabytesPerSecond, bytes };
})();
