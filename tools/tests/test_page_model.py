"""The page's transfer model (wbtools/page/model.js) against tcp.py and calls.py, in Chromium.

A grid of payload sizes, link profiles, bandwidth overrides and connection states; each link
knob of links.Link is also varied on its own (every field of the dataclass, so a knob added to
tcp.py and links.py but not to model.js makes this test fail), over every stack of links.json.
"""

import dataclasses
import json
import math
import os
import unittest

from wbtools.transfer import links, calls, tcp
from wbtools.page import chromium

MODEL_JS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools", "wbtools", "page", "model.js")
SIZES = (0, 1, 1459, 1460, 1461, 2920, 14600, 14601, 100_000, 164_570, 1_338_786, 8_054_845)
BANDWIDTHS = (None, 1e5, 1e9, 4e10)
CONNECTIONS = (None, "warm", "cold", "resumed")
_TEXT_FIELDS = ("name", "description", "fitted_from")


def variants(link):
    """link with each knob changed on its own: booleans flipped, numbers moved, the
    connection state swapped."""
    out = []
    for spec in dataclasses.fields(links.Link):
        value = getattr(link, spec.name)
        if spec.name in _TEXT_FIELDS:
            continue
        if isinstance(value, bool):
            changed = not value
        elif isinstance(value, int):
            changed = value + 3 if value else 2
        elif isinstance(value, float):
            changed = value * 3 if value else 0.15
        elif isinstance(value, str):
            # Every other value the string knob takes (links.py validates them), or a
            # value no knob takes when it lists none.
            changed = [v for v in links._CHOICES.get(spec.name, ("(other)",)) if v != value]
        else:
            changed = None
        for each in changed if isinstance(changed, list) else [changed]:
            if each is not None:
                out.append(dataclasses.replace(link, name=f"{link.name}+{spec.name}={each}",
                                               **{spec.name: each}))
    return out


def grid():
    profiles = list(links.load_links().values())
    base = [link for link in profiles if link.name in ("lan", "wan")]
    # Knobs that act only together: a cold start with bbr, a separate header write with
    # Nagle's delayed ACK, and a connection that loses its window.
    base += [dataclasses.replace(link, name=f"{link.name}/{knobs}", **values)
             for link in base for knobs, values in (
                 ("bbr", {"congestion": "bbr", "warm_keeps_window": False}),
                 ("separate", {"header_write": "separate", "delayed_ack_s": 0.04}),
                 ("classic", {"nagle": "classic", "delayed_ack_s": 0.2}))
             if all(hasattr(link, key) for key in values)]
    # Every stack of links.json on lan and wan (where HTTP/2's window limits), paced by bbr
    # too, and with a window lost between requests.
    stacked = [links.with_stack(dataclasses.replace(link, name=f"{link.name}@{stack}{knobs}",
                                                    **knobs),
                                stack)
               for link in base[:2] for stack in links.load_stacks()
               for knobs in ({}, {"congestion": "bbr"}, {"warm_keeps_window": False})]
    every = profiles + stacked + [v for link in base for v in variants(link)]
    cases = []
    for link in every:
        for size in SIZES:
            for bandwidth in BANDWIDTHS:
                for connection in CONNECTIONS:
                    cases.append((size, link, bandwidth, connection))
    return every, cases


def pairing(size, index):
    """A pairing whose CPU parts differ per case, so a misplaced term shows."""
    scale = 1 + index % 7
    return calls.Pairing("json", "science", 1000, "reference", "simdjson-dom", "gzip", size,
                         encode=1.1e-4 * scale, decode=2.3e-4 * scale, compress=3.7e-5 * scale,
                         decompress=1.3e-5 * scale)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)


@unittest.skipUnless(chromium.find(), f"Chromium is not installed (Debian package "
                     f"'{chromium.PACKAGE}', which tools/lib.sh installs)")
class ModelInTheBrowser(unittest.TestCase):
    def test_grid_equals_python(self):
        every, cases = grid()
        link_index = {link.name: i for i, link in enumerate(every)}
        # Crossover is a search of ~300 calls: every 17th case is enough to hold it.
        crossover_cases = set(range(0, len(cases), 17))
        js_cases = []
        expected = []
        for index, (size, link, bandwidth, connection) in enumerate(cases):
            p = pairing(size, index)
            js_cases.append([link_index[link.name], dataclasses.asdict(p), bandwidth, connection,
                             index in crossover_cases])
            entry = {"transfer": tcp.transfer(size, link, bandwidth, connection),
                     "call": calls.call(p, link, bandwidth, connection),
                     "serialization": calls.serialization_crossover(p)}
            if index in crossover_cases:
                entry["crossover"] = calls.crossover(p, link)[0]
            expected.append(entry)
        with open(MODEL_JS, encoding="utf-8") as handle:
            source = handle.read()
        script = (source + ";\n(() => { const links = " +
                  json.dumps([dataclasses.asdict(link) for link in every]) +
                  "; const cases = " + json.dumps(js_cases) + """;
            return JSON.stringify(cases.map(([li, p, bw, conn, cross]) => {
              const out = {transfer: wbModel.transfer(p.wire_bytes, links[li], bw, conn),
                           call: wbModel.call(p, links[li], bw, conn),
                           serialization: wbModel.serializationCrossover(p)};
              if (cross) out.crossover = wbModel.crossover(p, links[li])[0];
              return out;
            }));
          })()""")
        with chromium.Browser() as browser:
            browser.send("Page.navigate", url="about:blank")
            got = json.loads(browser.evaluate(script))
            browser.drain()
            self.assertEqual(browser.console_errors, [])
        self.assertEqual(len(got), len(expected))
        mismatches = []
        for (size, link, bandwidth, connection), want, have in zip(cases, expected, got):
            for part in ("transfer", "call"):
                for key, value in want[part].items():
                    if not close(float(value), have[part].get(key)):
                        mismatches.append(f"{part}.{key} size={size} link={link.name} "
                                          f"bw={bandwidth} conn={connection}: python {value}, "
                                          f"js {have[part].get(key)}")
            serialization = want["serialization"]
            if not (math.isnan(serialization) and have["serialization"] is None) and \
                    not close(serialization, have["serialization"]):
                mismatches.append(f"serialization size={size}: {serialization} vs "
                                  f"{have['serialization']}")
            if "crossover" in want and not close(want["crossover"], have["crossover"]):
                mismatches.append(f"crossover size={size} link={link.name}: python "
                                  f"{want['crossover']}, js {have['crossover']}")
        self.assertEqual(mismatches[:10], [], f"{len(mismatches)} of {len(cases)} cases differ")
        # The grid reaches every branch it is meant to: stalls, delayed ACK, hops, cold setup.
        modelled = [want["call"] for want in expected]
        transfers = [want["transfer"] for want in expected]
        self.assertTrue(any(t["round_trips"] > 3 for t in transfers))
        self.assertTrue(any(t["stall"] > 0 for t in transfers))
        self.assertTrue(any(t["setup"] > 0 for t in transfers))
        self.assertTrue(any(c["hops_cpu"] > 0 for c in modelled))


if __name__ == "__main__":
    unittest.main()
