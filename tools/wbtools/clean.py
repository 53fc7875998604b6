"""Memory figures of a result file made correct for every repetition.

Google Benchmark 1.7.1 keeps each repetition's MemoryManager::Result in a std::vector and
reports a pointer into it; a later repetition's push_back can move the vector, so every
repetition but the last may be written with whatever the old storage then holds
(max_bytes_used: -7056706696389216352). allocs_per_iter is computed before that and is right.
Each repetition measures the same call of the same benchmark, so the last repetition's figures
(the one whose pointer is still valid) are written into the others.

`python3 -m wbtools.clean RESULT.json` rewrites the file in place (atomically);
tools/run_bench.sh runs it before a result is published.
"""

import json
import os
import sys

from wbtools import cli

POINTED_FIELDS = ("max_bytes_used", "total_allocated_bytes", "net_heap_growth")


def clean(data):
    """Fix data's benchmarks in place; returns how many entries were changed."""
    last = {}
    for entry in data.get("benchmarks", []):
        if entry.get("run_type") == "iteration" and "max_bytes_used" in entry:
            name = entry.get("run_name", entry.get("name"))
            index = entry.get("repetition_index", 0)
            if name not in last or index >= last[name].get("repetition_index", 0):
                last[name] = entry
    changed = 0
    for entry in data.get("benchmarks", []):
        if entry.get("run_type") != "iteration" or "max_bytes_used" not in entry:
            continue
        source = last[entry.get("run_name", entry.get("name"))]
        if source is entry:
            continue
        if any(entry.get(field) != source.get(field) for field in POINTED_FIELDS):
            changed += 1
        for field in POINTED_FIELDS:
            if field in source:
                entry[field] = source[field]
    return changed


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.split("\n\n", 1)[0] + "\n\nusage: python3 -m wbtools.clean RESULT.json")
        return 0 if args and args[0] in ("-h", "--help") else 2
    path = args[0]
    data = cli.read_json(path, "the result file")
    changed = clean(data)
    tmp = path + ".clean.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)
        handle.write("\n")
    os.chmod(tmp, os.stat(path).st_mode & 0o777)
    os.replace(tmp, path)
    print(f"clean: {changed} repetition(s) given their benchmark's memory figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
