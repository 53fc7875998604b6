"""Payloads the project generates for `./wirebench bench --payload` and its tests: the
shapes that rank parsers differently from the suite's rows (docs/payload.md). Each is
deterministic from its seed, so the same call writes the same bytes on every machine, and
none is a copy of another project's file.

    tools/commands/bench_step.py sample-payloads DIR [--mb N]

writes numbers.json, strings.json, nested.json (about N MB each, default 2), namespaced.xml
(about N / 2 MB) and edges.json (a lone surrogate escape, a number beyond double range and a
duplicate key) into DIR.
"""

import argparse
import json
import pathlib
import random


# Text with characters from outside ASCII in every width of UTF-8, and the ones JSON and XML
# must escape.
_WORDS = ("Grüße", "naïve", "Łódź", "Ελληνικά", "кириллица", "日本語のテキスト", "한국어",
          "emoji 🚀✨", "tab\there", "quote \" and \\ slash", "a < b & c > d", "plain ascii words")


def numbers(target, seed=1):
    """A JSON array of coordinate rings: doubles with 15-17 significant digits, as canada.json
    is shaped, about target bytes."""
    rng = random.Random(seed)
    rings, size = [], 2
    while size < target:
        ring = [[round(rng.uniform(-180, 180), rng.randint(12, 15)),
                 round(rng.uniform(-90, 90), rng.randint(12, 15))] for _ in range(64)]
        rings.append(ring)
        size += len(json.dumps(ring, separators=(",", ":"))) + 1
    return json.dumps({"type": "MultiLineString", "coordinates": rings},
                      separators=(",", ":")).encode()


def strings(target, seed=2):
    """A JSON array of records with long strings of non-ASCII text and escapes, about target
    bytes."""
    rng = random.Random(seed)
    rows, size = [], 2
    while size < target:
        text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(20, 200)))
        row = {"id": len(rows), "title": rng.choice(_WORDS), "body": text,
               "tags": [rng.choice(_WORDS) for _ in range(3)]}
        rows.append(row)
        size += len(json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode()) + 1
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode()


def nested(target, depth=400, seed=3):
    """A JSON array of trees each `depth` levels deep (objects and arrays in turn), about
    target bytes: within every parser's depth limit (Boost.JSON and simdjson stop at 1,024),
    deep enough that a parser's per-level cost shows."""
    rng = random.Random(seed)
    trees, size = [], 2
    while size < target:
        # Each level's own values vary, so a compressor meets a deep document, not one
        # repeated tree.
        tree = rng.randint(0, 1000)
        for level in range(depth):
            tree = {"k": rng.randint(0, 10**6), "v": tree} if level % 2 else \
                [round(rng.random(), 4), tree]
        text = json.dumps(tree, separators=(",", ":"))
        trees.append(text)
        size += len(text) + 1
    return ("[" + ",".join(trees) + "]").encode()


def namespaced_xml(target, seed=4):
    """An XML document with three namespaces, prefixed attributes, entity and character
    references and CDATA, about target bytes."""
    rng = random.Random(seed)
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n'
             '<c:catalog xmlns:c="urn:example:catalog" xmlns="urn:example:item" '
             'xmlns:p="urn:example:price">']
    size = len(parts[0])
    n = 0
    while size < target:
        word = rng.choice(_WORDS).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        item = (f'<item id="{n}" p:currency="EUR"><name>{word} &#x263A;</name>'
                f'<p:price>{rng.uniform(0, 1e4):.2f}</p:price>'
                f'<note><![CDATA[raw <text> & more {n}]]></note></item>')
        parts.append(item)
        size += len(item.encode())
        n += 1
    parts.append("</c:catalog>\n")
    return "".join(parts).encode()


def edges():
    """A small JSON document parsers read differently: a lone surrogate escape, a number
    beyond double range, a duplicate key."""
    return b'{"lone":"\\ud800","huge":1e400,"dup":1,"dup":2}'


def write_all(folder, megabytes=2.0):
    """Writes every sample into folder; returns their paths."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = int(megabytes * 2**20)
    files = {"numbers.json": numbers(target), "strings.json": strings(target),
             "nested.json": nested(target), "namespaced.xml": namespaced_xml(target // 2),
             "edges.json": edges()}
    paths = []
    for name, data in files.items():
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="bench_step.py sample-payloads",
        description="Writes the project's sample payloads for bench --payload into DIR.")
    parser.add_argument("dir", help="the folder to write into (made if missing)")
    parser.add_argument("--mb", type=float, default=2.0,
                        help="size of each JSON sample in MB (default 2; the XML is half)")
    args = parser.parse_args(argv)
    for path in write_all(args.dir, args.mb):
        print(path)

