"""The cases of the measured wire's matrix: link profiles, payloads, congestion controls.

A case is one (profile, payload, congestion control, cold or warm) whose transfer time
wirebench_wire measures and tools/wbtools/transfer/tcp.py models. The payload sizes are read from a
result file of ./wirebench bench: the reference writer's uncompressed bytes (its
wire_bytes counter), the bytes a service sends for that payload.
"""

import os
from dataclasses import dataclass

from .. import cli, results
from ..cli import UserError

CONGESTION = ("cubic", "reno", "bbr")
CONNECTIONS = ("cold", "warm")

# (format, dataset, rows): the JSON and Atom payload of every dataset at its field sizes and
# the science subset, from message/100 (4.6 KB of JSON) to science/8100 (8 MB of Atom).
PAYLOADS = (
    ("json", "message", 100), ("atom", "message", 100),
    ("json", "airport", 101), ("atom", "airport", 101),
    ("json", "science", 1000), ("atom", "science", 1000),
    ("json", "science", 8100), ("atom", "science", 8100),
)
# The default subset (a few minutes): the smallest payloads and a science page, which
# between them take one to seven slow-start rounds.
DEFAULT_PAYLOADS = (("json", "message", 100), ("atom", "message", 100),
                    ("json", "science", 1000), ("atom", "science", 1000))

# Profiles measured: those with a real path RTT of at least 10 ms and slow start. Below
# 10 ms the host's own wake-ups (about 0.25 ms per round trip) are a visible part of every
# round trip, so the emulator is measured rather than TCP. A profile with slow_start false
# (relay-2009) is a fit of published end-to-end timings whose "RTT" is a per-request
# latency holding that era's server work: there is no path to emulate.
MIN_RTT_MS = 10.0

# Suffixes of the files beside a result that are not Google Benchmark results.
_SIDE_FILES = ("-conformance.json", "-standalone.json", "-icount.json", "-threads.json",
               "-wire.json", "-scenario.json")


@dataclass(frozen=True)
class Payload:
    """One payload: its name (format/dataset/rows) and size in bytes."""

    name: str
    bytes: int


def measured_profiles(raw_profiles):
    """(names measured, {name: why not}) of the profiles of tools/links.json."""
    chosen, skipped = [], {}
    for name, profile in raw_profiles.items():
        if profile.get("slow_start", True) is False:
            skipped[name] = ("slow_start false: a fitted end-to-end latency, not a path RTT; "
                             "nothing to emulate")
        elif float(profile["rtt_ms"]) < MIN_RTT_MS:
            skipped[name] = (f"RTT {profile['rtt_ms']} ms < {MIN_RTT_MS:g} ms: the host's "
                             "wake-ups per round trip would be measured, not TCP")
        else:
            chosen.append(name)
    return chosen, skipped


def result_files(folder):
    """Google Benchmark result files in folder, newest first (side files excluded)."""
    files = [f for f in cli.json_files(folder)
             if not (cli.result_stem(f) + ".json").endswith(_SIDE_FILES)]
    return sorted(files, key=os.path.basename, reverse=True)


def sizes_from_folder(folder, wanted=PAYLOADS):
    """(path, [Payload]) from the newest result in folder that sizes every wanted payload."""
    for path in result_files(folder):
        try:
            return path, payload_sizes(path, wanted)
        except UserError:
            continue
    raise UserError(f"{folder}: no result file has the wire_bytes of every payload "
                    "(run ./wirebench bench, or give --sizes-from RESULT.json)")


def payload_sizes(result_path, wanted=PAYLOADS):
    """[Payload] of wanted, their bytes from the reference encoder's wire_bytes counter."""
    result = results.load(result_path)
    out = []
    for fmt, dataset, rows in wanted:
        runs = result.select(op="encode", format=fmt, dataset=dataset, rows=rows)
        sizes = [run.counter("wire_bytes") for run in runs if run.name.library == "reference"]
        sizes = [s for s in sizes if s is not None]
        if not sizes:
            raise UserError(f"{result_path}: no wire_bytes of {fmt}/{dataset}/{rows}/encode/"
                            "reference: cannot size that payload")
        out.append(Payload(f"{fmt}/{dataset}/{rows}", int(sizes[0])))
    return out
