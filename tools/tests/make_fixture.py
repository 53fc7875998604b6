#!/usr/bin/python3
"""Writes data/synthetic.json: a small, hand-made Google Benchmark 1.7-style result file.

The numbers are invented (round, easy to check by hand); the shape is what wirebench_bench
writes: 3 repetitions per benchmark plus mean/median/stddev/cv aggregates, one benchmark that
failed its round-trip check (1.7 error_occurred) and one skipped the 1.8+ way.
Run it again only when the fixture's shape must change: the tests assert on its numbers.
"""

import json
import os
import statistics

# name -> (cpu times in us for the 3 repetitions, payload bytes, rows, counters)
BENCHES = [
    ("json/airport/101/encode/reference", (20, 21, 22), 16000, 101,
     {"wire_bytes": 16000, "gzip_bytes": 4000}),
    ("json/airport/101/encode/rapidjson", (30, 30, 36), 16000, 101,
     {"wire_bytes": 16000, "gzip_bytes": 4000}),
    ("json/airport/101/decode/rapidjson-dom/from:reference", (50, 52, 54), 16000, 101, {}),
    ("json/airport/101/decode/rapidjson-dom/from:rapidjson", (51, 52, 53), 16000, 101, {}),
    ("json/airport/101/decode/simdjson-ondemand/from:rapidjson", (40, 40, 40), 16000, 101, {}),
    ("json/airport/101/parse-only/simdjson-dom", (10, 10, 10), 16000, 101, {}),
    ("json/airport/101/parse-only/rapidjson-dom", (20, 20, 26), 16000, 101, {}),
    ("json/airport/101/compress/gzip", (100, 100, 100), 16000, 101, {}),
    ("json/airport/101/decompress/gzip", (20, 20, 20), 16000, 101, {}),
    ("soap/airport/101/encode/reference", (25, 25, 25), 32000, 101, {"wire_bytes": 32000}),
    ("soap/airport/101/decode/pugixml/from:reference", (60, 60, 60), 32000, 101, {}),
    ("atom/science/1000/encode/reference", (3000, 3000, 3000), 1000000, 1000,
     {"wire_bytes": 1000000}),
    ("json/science/1000/encode/reference", (1000, 1000, 1000), 160000, 1000,
     {"wire_bytes": 160000}),
    ("reference/memcpy/16000", (1, 1, 1), 16000, 1, {}),
]

# The codec labels wirebench_bench writes into the context (benchmarks/context.cpp), for some of
# the codecs above: simdjson-dom and the failed decoders have none, as in a file whose registry
# lacked them, so the report shows "-" for them.
LABELS = {
    "codec.json.encode.reference": "streaming writer (hand-written)",
    "codec.json.encode.rapidjson": "streaming writer (RapidJSON Writer)",
    "codec.json.decode.rapidjson-dom": "DOM, copying, validates UTF-8, exact doubles",
    "codec.json.decode.simdjson-ondemand": "on-demand, in situ, validates UTF-8, exact doubles",
    "codec.soap.encode.reference": "streaming writer (hand-written)",
    "codec.soap.decode.pugixml": "DOM, in situ, no UTF-8 check",
    "codec.atom.encode.reference": "streaming writer (hand-written)",
}


def entry(name, index, cpu_us, nbytes, rows, counters, run_type="iteration", aggregate=None):
    seconds = cpu_us * 1e-6
    item = {"name": name if aggregate is None else f"{name}_{aggregate}", "run_name": name,
            "run_type": run_type, "repetitions": 3, "threads": 1, "iterations": 1000,
            "real_time": cpu_us * 1.5, "cpu_time": cpu_us, "time_unit": "us",
            "bytes_per_second": nbytes / seconds if seconds else 0,
            "items_per_second": rows / seconds if seconds else 0, "minflt_per_iter": 0.0}
    if aggregate is None:
        item["repetition_index"] = index
    else:
        item.update(aggregate_name=aggregate, aggregate_unit="time")
    item.update(counters)
    return item


def main():
    benchmarks = []
    for name, times, nbytes, rows, counters in BENCHES:
        for index, cpu in enumerate(times):
            benchmarks.append(entry(name, index, cpu, nbytes, rows, counters))
        benchmarks.append(entry(name, 0, statistics.fmean(times), nbytes, rows, counters,
                                "aggregate", "mean"))
        benchmarks.append(entry(name, 0, statistics.median(times), nbytes, rows, counters,
                                "aggregate", "median"))
    benchmarks.append({"name": "json/airport/101/decode/nlohmann-sax/from:reference",
                       "run_name": "json/airport/101/decode/nlohmann-sax/from:reference",
                       "run_type": "iteration", "error_occurred": True,
                       "error_message": "round trip mismatch at row 3", "iterations": 0,
                       "real_time": 0, "cpu_time": 0, "time_unit": "us"})
    benchmarks.append({"name": "json/airport/101/decode/boost-json/from:reference",
                       "run_name": "json/airport/101/decode/boost-json/from:reference",
                       "run_type": "iteration", "skipped": "error_occurred",
                       "skip_message": "not built", "iterations": 0,
                       "real_time": 0, "cpu_time": 0, "time_unit": "us"})
    context = {"date": "2026-11-30T09:00:00+00:00", "host_name": "fixture",
               "library.rapidjson": "1.1.0", "note": "synthetic test fixture"}
    context.update(LABELS)
    data = {"context": context, "benchmarks": benchmarks}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "synthetic.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main()
