"""The machine a result was measured on, as a short name for file names.

A result file is named after its machine's CPU model (results/<stamp>-<machine>-<commit>.json)
so that runs of two machines can be told apart at a glance and each machine keeps one
published run. The model is the text benchmarks/context.cpp records as the context's
cpu_model: /proc/cpuinfo's "model name" followed by "(family F, model M, stepping S)".
"""

import re
import sys

_NOISE = re.compile(r"\((R|TM|tm)\)|\bCPU\b|\bProcessor\b|@\s*[\d.]+\s*GHz|\b\d+-Core\b", re.I)
_IDS = re.compile(r"\(family (\d+), model (\d+)(?:, stepping \d+)?\)")


def slug(cpu_model):
    """A file-name-safe short name: 'AMD EPYC (family 26, model 2, stepping 1)' -> 'amd-epyc-f26m2'.

    The brand words are kept without trademarks, 'CPU', 'Processor' and the clock; the
    family and model numbers are kept because virtual machines often report a bare brand
    ('AMD EPYC') for processors of different generations.
    """
    if not cpu_model or cpu_model == "unknown":
        return "unknown-cpu"
    ids = _IDS.search(cpu_model)
    brand = _NOISE.sub(" ", _IDS.sub(" ", cpu_model))
    words = re.sub(r"[^a-z0-9]+", "-", brand.lower()).strip("-") or "cpu"
    return f"{words}-f{ids.group(1)}m{ids.group(2)}" if ids else words


def local_cpu_model(cpuinfo="/proc/cpuinfo"):
    """This machine's model, spelled as benchmarks/context.cpp spells it (first processor)."""
    field = {}
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                key, sep, value = line.partition(":")
                if sep:
                    field[key.strip()] = value.strip()
    except OSError:
        return "unknown"
    name = field.get("model name", "")
    if not name:
        return "unknown"
    ids = ", ".join(f"{shown} {field[key]}" for key, shown in
                    (("cpu family", "family"), ("model", "model"), ("stepping", "stepping"))
                    if field.get(key))
    return f"{name} ({ids})" if ids else name


def main(argv=None):
    """`bench_step.py machine`: this machine's short name (tools/commands/bench.sh names files
    so)."""
    if argv:
        print("usage: bench_step.py machine (no options): this machine's short name",
              file=sys.stderr)
        return 0 if argv[0] in ("-h", "--help") else 2
    print(slug(local_cpu_model()))
    return 0
    sys.exit(0)
