"""Read a Google Benchmark JSON result file and group its runs by wirebench name.

A wirebench benchmark name is fields joined by "/" (docs/methodology.md):
  {format}/{dataset}/{rows}/encode/{serializer}
  {format}/{dataset}/{rows}/decode/{parser}/from:{serializer}
  {format}/{dataset}/{rows}/parse-only/{parser}
  {format}/{dataset}/{rows}/decode-new-parser/{parser}
  {format}/{dataset}/{rows}/route/{library}
  {format}/{dataset}/{rows}/compress/{codec}   and  .../decompress/{codec}
  reference/{name}/{bytes}
  {format}/message/scaling/{decode|encode}/{library}/{rows}  (one Complexity(oN) family per
      codec; op becomes "decode-scaling"/"encode-scaling", the family's _BigO/_RMS aggregates
      land on the name without /{rows})
Google Benchmark appends its own suffixes, which are stripped here, except /threads:N: runs at
different thread counts stay apart (BenchName.threads).
"""

import json
import math
import re
import statistics
from dataclasses import dataclass, field

from .. import stats
from ..cli import UserError, json_error, read_text

# Suffixes Google Benchmark adds to a name: per-run options and aggregate names.
_OPTION_SUFFIX = re.compile(
    r"/(?:threads|repeats|iterations|min_time|min_warmup_time):[^/]*$"
    r"|/(?:real_time|process_time|manual_time)$")
_AGGREGATE_SUFFIX = re.compile(r"_(?:mean|median|stddev|cv|BigO|RMS|paired)$")

_SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

# Compression codec spellings: the benchmark may say "brotli", the counter says "br".
CODEC_ALIASES = {"gzip": "gzip", "br": "br", "brotli": "br", "zstd": "zstd", "lz4": "lz4",
                 "snappy": "snappy"}
CODECS = ("gzip", "br", "zstd", "lz4", "snappy")


def strip_suffixes(name):
    """Return the benchmark name without Google Benchmark's suffixes."""
    previous = None
    while previous != name:
        previous = name
        name = _AGGREGATE_SUFFIX.sub("", name)
        name = _OPTION_SUFFIX.sub("", name)
    return name


@dataclass(frozen=True)
class BenchName:
    """The fields of a wirebench benchmark name."""

    full: str
    format: str = ""
    dataset: str = ""
    rows: int = 0
    op: str = ""
    library: str = ""  # serializer, parser, routing library, compression codec or reference name
    source: str = ""  # decode: the serializer that wrote the input (from:X)
    size: int = 0  # reference benchmarks: bytes
    threads: int = 1  # /threads:N of the concurrent-client runs

    @property
    def is_reference(self):
        return self.format == "reference"

    @property
    def case(self):
        """(format, dataset, rows): one payload."""
        return (self.format, self.dataset, self.rows)


_THREADS = re.compile(r"/threads:(\d+)")


def run_key(name):
    """The name runs are grouped by: suffixes stripped but /threads:N kept."""
    threads = _THREADS.search(name)
    base = strip_suffixes(name)
    return f"{base}/threads:{threads.group(1)}" if threads else base


def parse_name(name):
    """Split a (suffix-stripped) name into a BenchName; unknown shapes keep only `full`."""
    threads = _THREADS.search(name)
    base = strip_suffixes(name)
    parts = base.split("/")
    if threads:
        base = f"{base}/threads:{threads.group(1)}"
    if len(parts) >= 5 and parts[2] == "scaling":
        rows = int(parts[5]) if len(parts) > 5 and parts[5].isdigit() else 0
        return BenchName(base, format=parts[0], dataset=parts[1], rows=rows,
                         op=f"{parts[3]}-scaling", library=parts[4])
    if parts[0] == "reference" and len(parts) >= 3 and parts[2].isdigit():
        return BenchName(base, format="reference", op=parts[1], library=parts[1],
                         size=int(parts[2]))
    if len(parts) < 5 or not parts[2].isdigit():
        return BenchName(base)
    fmt, dataset, rows, op, library = parts[:5]
    source = ""
    for extra in parts[5:]:
        if extra.startswith("from:"):
            source = extra[len("from:"):]
    if op in ("compress", "decompress"):
        library = CODEC_ALIASES.get(library, library)
    return BenchName(base, format=fmt, dataset=dataset, rows=int(rows), op=op, library=library,
                     source=source, threads=int(threads.group(1)) if threads else 1)


@dataclass
class Run:
    """All repetitions of one benchmark, times in seconds per iteration."""

    name: BenchName
    cpu: list = field(default_factory=list)
    real: list = field(default_factory=list)
    bytes_per_second: list = field(default_factory=list)
    counters: dict = field(default_factory=dict)  # name -> list of values
    aggregates: dict = field(default_factory=dict)  # aggregate name -> entry (fallback)
    memory: dict = field(default_factory=dict)  # MEMORY_FIELDS of the memory run
    error: str = ""
    # A run in rounds (wbtools/results/paired.py): {round_id: ratio to the probe} per clock, and
    # the paired aggregate entry.
    ratios: dict = field(default_factory=lambda: {"cpu": {}, "real": {}})
    paired: dict = field(default_factory=dict)
    probe: bool = False  # a unit's probe in a run in rounds (paired_reference 1)
    # A competitor a racing run settled (benchmarks/race.hpp): {"after": rounds it ran,
    # "by": why}; {} otherwise.
    settled: dict = field(default_factory=dict)

    def figure(self, clock="cpu"):
        """The run's time per iteration in seconds as the tools answer with it: the paired
        time of a run in rounds (the probe's fast time x the median per-round ratio, which
        a slow window of the machine does not move), else the median."""
        if self.paired:
            value = self.paired.get(f"{clock}_time")
            if isinstance(value, (int, float)) and math.isfinite(value):
                return entry_seconds(self.paired, f"{clock}_time")
        return self.median(clock)

    def figure_interval(self, clock="cpu"):
        """95 % interval of figure() in seconds (stats.Interval), or None: the paired
        interval scaled by the probe's fast time, else the median's over repetitions."""
        if self.paired and clock == "cpu" and "paired_ratio_low" in self.paired:
            scale = self.figure(clock) / self.paired["paired_ratio"]
            return stats.Interval(self.paired["paired_ratio_low"] * scale,
                                  self.paired["paired_ratio_high"] * scale,
                                  self.paired.get("paired_confidence", stats.CONFIDENCE))
        return None if self.paired else self.interval(clock)

    def round_times(self, clock="cpu"):
        """{round_id: this run's time in seconds at the probe's fast speed} of a run in
        rounds: figure()'s per-round terms; {} otherwise."""
        if not self.paired or not self.ratios[clock]:
            return {}
        scale = self.figure(clock) / statistics.median(self.ratios[clock].values())
        return {r: ratio * scale for r, ratio in self.ratios[clock].items()}

    def times(self, clock="cpu"):
        return self.cpu if clock == "cpu" else self.real

    def median(self, clock="cpu"):
        """Median time per iteration in seconds (aggregates when repetitions are absent)."""
        values = self.times(clock)
        if values:
            return statistics.median(values)
        entry = self.aggregates.get("median") or self.aggregates.get("mean")
        return entry_seconds(entry, f"{clock}_time") if entry else math.nan

    def interval(self, clock="cpu"):
        """95 % interval of the median over the repetitions (stats.median_interval), or None
        with fewer than 6 repetitions."""
        values = self.times(clock)
        return stats.median_interval(values) if values else None

    def spread(self, clock="cpu"):
        """(min, max, cv) over repetitions; cv is stddev/mean, nan with fewer than 2 values;
        min and max are nan when the file holds only aggregates."""
        values = self.times(clock)
        if len(values) >= 2:
            mean = statistics.fmean(values)
            cv = statistics.stdev(values) / mean if mean > 0 else math.nan
            return min(values), max(values), cv
        if values:
            return values[0], values[0], math.nan
        # Aggregates only (--benchmark_report_aggregates_only): no min/max to report.
        cv_entry = self.aggregates.get("cv")
        cv = cv_entry.get(f"{clock}_time", math.nan) if cv_entry else math.nan
        return math.nan, math.nan, cv

    def counter(self, key):
        """Median of a user counter over repetitions, or None when absent."""
        values = self.counters.get(key)
        if values:
            return statistics.median(values)
        entry = self.aggregates.get("median") or self.aggregates.get("mean")
        value = entry.get(key) if entry else None
        return float(value) if isinstance(value, (int, float)) else None

    def throughput(self):
        """Median bytes per second as Google Benchmark computed it (payload bytes / time)."""
        if self.bytes_per_second:
            return statistics.median(self.bytes_per_second)
        entry = self.aggregates.get("median") or self.aggregates.get("mean")
        return entry.get("bytes_per_second") if entry else None


# The MemoryManager's fields. Google Benchmark 1.7.1 makes one memory run per benchmark after
# its repetitions and writes valid figures only into the LAST repetition's entry (the earlier
# entries carry uninitialised values), so they are read from that entry alone.
NOT_MEASURED = 2**63 - 1
MEMORY_FIELDS = ("allocs_per_iter", "max_bytes_used", "total_allocated_bytes", "net_heap_growth")

# Fields of a run entry that are not user counters.
_STANDARD_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
    "bytes_per_second", "items_per_second", "aggregate_name", "aggregate_unit", "label",
    "error_occurred", "error_message", "skipped", "skip_message", "big_o", "rms",
    "complexity_n", "manual_time", *MEMORY_FIELDS,
    # a run in rounds (wbtools/results/paired.py)
    "round", "round_id", "round_slot", "paired_reference", "paired_ratio", "paired_ratio_real",
    # a racing run (benchmarks/race.hpp)
    "settled_after", "settled_by"}


def entry_seconds(entry, key):
    unit = entry.get("time_unit", "ns")
    if unit not in _SECONDS_PER_UNIT:
        raise UserError(f"unknown time_unit '{unit}' in benchmark '{entry.get('name')}'")
    return float(entry[key]) * _SECONDS_PER_UNIT[unit]


def _skip_reason(entry):
    """The error text of a run that did not complete (1.7 error_occurred, 1.8+ skipped)."""
    if entry.get("error_occurred"):
        return entry.get("error_message") or "error"
    skipped = entry.get("skipped")
    if skipped and skipped not in ("false", False, 0):
        return entry.get("skip_message") or entry.get("error_message") or str(skipped)
    return ""


@dataclass
class ResultFile:
    """A loaded result file: its context and the runs keyed by stripped name."""

    path: str
    context: dict
    runs: dict  # str -> Run
    _by_case: dict = field(default=None, repr=False, compare=False)

    def select(self, **fields):
        """Runs whose BenchName matches every given field, in file order."""
        candidates = self.runs.values()
        if {"format", "dataset", "rows"} <= set(fields):
            # The tools select case by case: index the runs by case once.
            if self._by_case is None:
                self._by_case = {}
                for run in self.runs.values():
                    self._by_case.setdefault(run.name.case, []).append(run)
            candidates = self._by_case.get((fields["format"], fields["dataset"], fields["rows"]),
                                           [])
        return [run for run in candidates
                if all(getattr(run.name, key) == value for key, value in fields.items())
                and not run.error]

    def get(self, name):
        run = self.runs.get(name)
        return run if run and not run.error else None

    def failed(self):
        return [run for run in self.runs.values() if run.error]

    def parse_only_pairs(self):
        """(case, parse-only run, [decode runs of the same parser from every serializer])
        for every parse-only benchmark, case by case; the list is empty when the parser has
        no decode benchmark at that case."""
        for case in self.cases():
            select = {"format": case[0], "dataset": case[1], "rows": case[2]}
            decodes = {}
            for run in self.select(op="decode", **select):
                decodes.setdefault(run.name.library, []).append(run)
            for parse in self.select(op="parse-only", **select):
                yield case, parse, decodes.get(parse.name.library, [])

    def cases(self):
        """Sorted (format, dataset, rows) of every non-reference benchmark."""
        return sorted({run.name.case for run in self.runs.values()
                       if run.name.format and not run.name.is_reference})


def load(path):
    """Load a result file; raise UserError with one clear line when it is not one."""
    try:
        text = read_text(path)
    except OSError as err:
        raise UserError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a result file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        # A file cut short (a run killed while writing, a partial copy) opens its object and
        # never closes it; the error may point back at where an unterminated string began.
        body = text.strip()
        cut = body.startswith("{") and (err.pos >= len(body) or not body.endswith("}"))
        what = "truncated" if cut else "not valid JSON"
        raise UserError(f"{path}: not a result file ({what}: {json_error(err)})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise UserError(f"{path}: not a Google Benchmark result file (no \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    runs = {}
    for index, entry in enumerate(data["benchmarks"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise UserError(f"{path}: benchmark entry {index} has no name")
        try:
            _add_entry(runs, entry)
        except KeyError as err:
            raise UserError(f"{path}: benchmark '{entry['name']}' is malformed (no "
                            f"{err.args[0]!r} field)") from None
        except (TypeError, ValueError) as err:
            raise UserError(f"{path}: benchmark '{entry['name']}' is malformed ({err})") \
                from None
    return ResultFile(path, context, runs)


def _add_entry(runs, entry):
    key = run_key(entry.get("run_name") or entry["name"])
    run = runs.get(key)
    if run is None:
        run = runs[key] = Run(parse_name(key))
    reason = _skip_reason(entry)
    if reason:
        run.error = reason
        return
    if entry.get("run_type") == "aggregate":
        if entry.get("aggregate_name") == "paired":
            run.paired = entry
            if entry.get("settled_after"):
                run.settled = {"after": int(entry["settled_after"]),
                               "by": entry.get("settled_by", "")}
        run.aggregates[entry.get("aggregate_name", "")] = entry
        return
    if entry.get("settled_after"):
        run.settled = {"after": int(entry["settled_after"]), "by": entry.get("settled_by", "")}
    if "round_id" in entry:
        run.probe = run.probe or bool(entry.get("paired_reference"))
        for clock, key in (("cpu", "paired_ratio"), ("real", "paired_ratio_real")):
            if isinstance(entry.get(key), (int, float)):
                run.ratios[clock][int(entry["round_id"])] = float(entry[key])
    index = entry.get("repetition_index", 0)
    if any(f in entry for f in MEMORY_FIELDS) and index >= run.memory.get("_index", -1):
        # int64 max is MemoryManager's "not measured".
        run.memory = {f: float(entry[f]) for f in MEMORY_FIELDS
                      if f in entry and entry[f] != NOT_MEASURED}
        run.memory["_index"] = index
    run.cpu.append(entry_seconds(entry, "cpu_time"))
    run.real.append(entry_seconds(entry, "real_time"))
    if "bytes_per_second" in entry:
        run.bytes_per_second.append(float(entry["bytes_per_second"]))
    for key_name, value in entry.items():
        if key_name not in _STANDARD_FIELDS and isinstance(value, (int, float)):
            run.counters.setdefault(key_name, []).append(float(value))
