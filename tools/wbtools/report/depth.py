"""Report sections of the measurement-depth benchmarks: memory per operation,
scaling with size, a new parser per call, concurrent clients and callgrind instruction counts.

Each section is empty when its benchmarks are not in the files given.
"""

import math
import statistics

from ..results import labels
from .. import results, units
from ..cli import read_json

GROWTH_FLAG = 0.25  # per-row cost growth from 100 to 10,000 rows that the report flags


def _payload_bytes(run):
    """Payload bytes of one call: Google Benchmark's bytes_per_second times the time per call."""
    throughput = run.throughput()
    seconds = run.median()
    return throughput * seconds if throughput and not math.isnan(seconds) else None


def memory_section(result):
    what = labels.of(result)
    rows, cells = [], []
    for run in sorted(result.select(), key=lambda r: r.name.full):
        name = run.name
        if name.op not in ("decode", "encode", "decode-new-parser") or not run.memory:
            continue
        if name.op == "decode" and name.source not in ("reference", ""):
            continue  # the serializer of the input barely changes a parser's allocations
        allocs = run.memory.get("allocs_per_iter")
        peak = run.memory.get("max_bytes_used")
        total = run.memory.get("total_allocated_bytes")
        retained = run.memory.get("net_heap_growth")
        payload = _payload_bytes(run)
        cells.append(what.of_name(name))
        rows.append([f"{name.format}/{name.dataset}/{name.rows}", name.op, name.library,
                     f"{allocs:,.0f}" if allocs is not None else "-",
                     f"{allocs / name.rows:.2f}" if allocs is not None and name.rows else "-",
                     units.count(total) if total is not None else "-",
                     units.count(peak) if peak is not None else "-",
                     f"{peak / payload:.2f}" if peak is not None and payload else "-",
                     units.count(retained) if retained is not None else "-"])
    if not rows:
        return ""
    if result.context.get("memory_figures") == "per call":
        basis = ("for one call in Google Benchmark's extra memory run, after a first call has "
                 "left what the codec keeps between calls (setup excluded). Decode input from "
                 "the reference writer. Peak = the most bytes of the blocks the call allocated "
                 "that are live at once (freeing the previous call's document does not lower "
                 "it); peak/B = peak bytes per payload byte; retained = what the call still "
                 "holds when it returns (its document or buffers, freed by the next call).")
    else:  # files written before the figures were per call
        basis = ("over Google Benchmark's extra memory run of the timed loop, as files without "
                 "the context's memory_figures counted them. Decode input from the reference "
                 "writer. Peak = highest live heap above the loop's start, which a codec that "
                 "frees its previous document at the start of a call lowers: below the "
                 "document's size, even to a few hundred bytes; peak/B = peak bytes per "
                 "payload byte; retained = the loop's net heap growth.")
    return ("## Memory per operation\n\nFrom the allocation counter (malloc, calloc, realloc, "
            "aligned allocations and operator new, including those made inside libxml2, "
            "Xerces-C and simdjson), " + basis + "\n\n" +
            labels.table(what, ["payload", "operation", "library", "allocs/call", "allocs/row",
                                "bytes allocated/call", "peak bytes", "peak/B", "retained"],
                         rows, "lllrrrrrr", 3, cells) + "\n")


def scaling_rows(result):
    """[(family run, {rows: run})] of every Complexity family in the file."""
    families = {}
    for run in result.runs.values():
        name = run.name
        if not name.op.endswith("-scaling") or run.error:
            continue
        family = f"{name.format}/{name.dataset}/scaling/{name.op[:-len('-scaling')]}/{name.library}"
        families.setdefault(family, [None, {}])
        if name.rows:
            families[family][1][name.rows] = run
        else:
            families[family][0] = run
    return families


def scaling_section(result):
    what = labels.of(result)
    rows, cells = [], []
    for family, (fit, sizes) in sorted(scaling_rows(result).items()):
        some = fit or next(iter(sizes.values()), None)
        cells.append(what.of_name(some.name) if some else None)
        big_o = fit.aggregates.get("BigO", {}) if fit else {}
        rms = fit.aggregates.get("RMS", {}) if fit else {}
        coefficient = big_o.get("cpu_coefficient")
        unit = units_of(big_o)
        per_row = {n: run.median() / n for n, run in sizes.items()}
        growth = (per_row[10000] / per_row[100] - 1) if 100 in per_row and 10000 in per_row \
            else math.nan
        rows.append([family, f"{units.seconds(coefficient * unit)}/row" if coefficient else "-",
                     units.percent(rms.get("rms")) if "rms" in rms else "-",
                     units.seconds(per_row.get(100, math.nan)),
                     units.seconds(per_row.get(10000, math.nan)),
                     units.percent(growth),
                     "**grows**" if growth > GROWTH_FLAG else ""])
    if not rows:
        return ""
    return ("## Scaling with size\n\nOne Google Benchmark family per codec over message at "
            "10 ... 10,000 rows with Complexity(oN): the fitted cpu time per row and the RMS "
            "of the fit (relative), and the measured time per row at 100 and 10,000 rows; a "
            f"growth above {GROWTH_FLAG:.0%} is flagged.\n\n" +
            labels.table(what, ["family", "fit (oN)", "RMS", "per row @100", "per row @10,000",
                                "growth", "flag"], rows, "lrrrrrl", 1, cells) + "\n")


def units_of(entry):
    return {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}.get(entry.get("time_unit", "ns"), 1e-9)


def new_parser_section(result):
    what = labels.of(result)
    rows, cells = [], []
    for cold in result.select(op="decode-new-parser"):
        n = cold.name
        cells.append(what.of_name(n))
        warm = result.get(f"{n.format}/{n.dataset}/{n.rows}/decode/{n.library}/from:reference")
        rows.append([f"{n.format}/{n.dataset}/{n.rows}", n.library, units.seconds(cold.median()),
                     units.seconds(warm.median()) if warm else "-",
                     units.ratio(cold.median(), warm.median() if warm else None)])
    if not rows:
        return ""
    return ("## A new parser per call\n\n`decode-new-parser`: the parser made by the registry "
            "factory inside the timed loop, then the decode (a CLI tool or a serverless function "
            "per call), with warm CPU caches, against the `decode` of the same input by a reused "
            "parser. Process start and library-wide "
            "initialisation (Xerces' XMLPlatformUtils::Initialize, simdjson's implementation "
            "choice) happen once per process and are not in either.\n\n" +
            labels.table(what, ["payload", "parser", "new parser", "reused", "new/reused"], rows,
                         "llrrr", 2, cells) + "\n")


def threads_section(threads_result):
    if threads_result is None:
        return ""
    what = labels.of(threads_result)
    groups = {}
    for run in threads_result.select():
        n = run.name
        key = n.full.rsplit("/threads:", 1)[0]
        groups.setdefault(key, {})[n.threads] = run
    rows, cells = [], []
    for key, by_threads in sorted(groups.items()):
        base = by_threads.get(1)
        cells.append(what.of_name(next(iter(by_threads.values())).name))
        one = base.throughput() if base else None
        cells = []
        for count in (1, 2, 4):
            run = by_threads.get(count)
            per_thread = run.throughput() / count if run and run.throughput() else None
            eff = per_thread / one if per_thread and one else None
            cells.append("-" if per_thread is None else
                         f"{units.megabytes_per_second(per_thread)}" +
                         ("" if count == 1 or eff is None else f" ({eff:.0%})"))
        rows.append([key.replace("/real_time", "")] + cells)
    if not rows:
        return ""
    pinned = threads_result.context.get("cpu_pinned", "?")
    return ("## Concurrent clients\n\nThe same call on 1, 2 and 4 threads at once, each with its "
            "own parser/encoder; wall-clock MB/s per thread and, in brackets, the scaling "
            "efficiency (per-thread throughput at N threads / at 1 thread). Unpinned run "
            f"(cpu_pinned: {pinned}) on a machine with "
            f"{threads_result.context.get('num_cpus', '?')} CPUs: above that many threads the "
            "ideal efficiency is CPUs/N.\n\n" +
            labels.table(what, ["benchmark", "1 thread MB/s", "2 threads MB/s/thread",
                                "4 threads MB/s/thread"], rows, "lrrr", 1, cells) + "\n")


def load_icount(path):
    data = read_json(path, "the icount file")
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise results.UserError(f"{path}: not an icount file (no 'benchmarks' list)")
    return {item["name"]: item for item in data["benchmarks"]}


def icount_section(result, icounts):
    if not icounts:
        return ""
    what = labels.of(result)
    rows, cells = [], []
    for name, item in sorted(icounts.items()):
        run = result.get(results.run_key(name))
        cells.append(what.of_name(results.parse_name(name)))
        per_byte = item.get("instructions_per_byte")
        rows.append([name, f"{item['instructions_per_call']:,.0f}",
                     "-" if per_byte is None else f"{per_byte:.2f}",
                     units.megabytes_per_second(run.throughput()) if run else "-",
                     units.percent(item.get("spread"), 2)])
    return ("## Instruction counts (callgrind)\n\nInstructions per call inside the timed loop "
            "under valgrind's callgrind (noise-free, independent of the machine's load) beside "
            "the timed MB/s; spread = (max - min) / median over the counted calls.\n\n" +
            labels.table(what, ["benchmark", "instructions/call", "instructions/B", "MB/s",
                                "spread"], rows, "lrrrr", 1, cells) + "\n" +
            _icount_ratios(icounts, what))


def _icount_ratios(icounts, what=None):
    """Decode + bind against parse-only in instructions, for each parser counted in both
    (the decode: median over the counted from:X inputs)."""
    parses, decodes = {}, {}
    for name, item in icounts.items():
        bench = results.parse_name(name)
        key = (bench.case, bench.library)
        if bench.op == "parse-only":
            parses[key] = item["instructions_per_call"]
        elif bench.op == "decode":
            decodes.setdefault(key, []).append(item["instructions_per_call"])
    rows, cells = [], []
    for key in sorted(parses.keys() & decodes.keys()):
        (fmt, dataset, nrows), library = key
        parse, decode = parses[key], statistics.median(decodes[key])
        cells.append(what.get(fmt, "decode", library) if what else None)
        rows.append([f"{fmt}/{dataset}/{nrows}", library, f"{parse / 1e6:,.1f}M",
                     f"{decode / 1e6:,.1f}M", units.ratio(decode, parse)])
    if not rows:
        return ""
    return ("\nDecode + bind against parse-only in instructions (the ratio the timed "
            "parse-only section gives, without the machine's noise):\n\n" +
            labels.table(what, ["payload", "parser", "parse only", "decode + bind",
                                "decode / parse"], rows, "llrrr", 2, cells) + "\n")
