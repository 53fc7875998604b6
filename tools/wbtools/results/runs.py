"""The runs in results/: the files that make one run, the machine it ran on, the documents
that cite it, and the index results/README.md.

A run is a result file <UTC stamp>-<machine>-<commit>.json (or .json.gz: publish stores a
large one gzip-compressed) with what tools/commands/bench.sh writes
beside it: <name>-conformance.json, <name>-standalone.json, <name>-icount.json,
<name>-threads.json, <name>-verdict.json (a payload run's) and the report folder <name>/. Each machine keeps one published run
(the newest run of the whole suite); a focused run stays only while a document cites it. An
older run of the whole suite lives in the git history, where a document cites it as
`git show REV:results/NAME.json` (a citation of that form keeps nothing in the tree).
"""

import glob
import json
import os
import re
from dataclasses import dataclass, field

from wbtools import cli
from wbtools.cli import UserError, json_error, read_text
from wbtools.results.machine import slug

SIBLING_SUFFIXES = ("-conformance", "-standalone", "-icount", "-threads", "-verdict")
# publish stores a main result file over this size gzip-compressed (NAME.json.gz): a run of
# the whole suite in rounds keeps every repetition, tens of megabytes of JSON.
GZIP_OVER = 4 * 2**20
# The documents whose citations keep a run in the tree (paths relative to the repository).
CITING_GLOBS = ("README.md", "docs/*.md", "docs/**/*.md")
# How a file from before run_scope was judged: a filter that selects every benchmark (Google
# Benchmark's default is ".") made it the whole suite.
_WHOLE = ("", ".", ".*", "all")


@dataclass
class Run:
    """One run: its main result file's stem, every file and folder of it, its context."""

    name: str
    paths: list = field(default_factory=list)  # names inside the results folder
    context: dict = field(default_factory=dict)
    benchmark_names: list = field(default_factory=list)  # distinct, in file order

    @property
    def machine(self):
        return slug(self.context.get("cpu_model", ""))

    @property
    def commit(self):
        return (self.context.get("git_commit") or "unknown")[:7]

    @property
    def date(self):
        return self.context.get("date", "")

    @property
    def whole_suite(self):
        """True for a run of every benchmark (not --filter, not --threads): the run_scope the
        benchmark executable wrote (benchmarks/scope.hpp). A file from before that field is
        judged as it was then, by its kind and filter."""
        if "run_scope" in self.context:
            return self.context["run_scope"] == "whole"
        if str(self.context.get("run_kind", "default")) != "default":
            return False
        if "benchmark_filter" in self.context:
            return self.context["benchmark_filter"] in _WHOLE
        # Files written before the filter was recorded: the whole suite has the reference
        # benchmarks and every format.
        names = self.benchmark_names
        return any(n.startswith("reference/") for n in names) and len(names) >= 1000

    def description(self):
        """What the run holds, in a few words."""
        kind = str(self.context.get("run_kind", "default"))
        if self.context.get("run_scope") == "payload":
            files = sorted(key[len("payload.file:"):-len(".path")] for key in self.context
                           if key.startswith("payload.file:") and key.endswith(".path"))
            return f"payload: {', '.join(files) or 'a user file'}"
        if kind not in ("default", "focused"):
            return kind
        if self.whole_suite:
            return "the whole suite"
        if self.context.get("benchmark_filter"):
            return f"focused: --filter '{self.context['benchmark_filter']}'"
        cases = sorted({"/".join(n.split("/")[:3]) for n in self.benchmark_names})
        ops = sorted({n.split("/")[3] for n in self.benchmark_names if n.count("/") >= 3})
        return f"focused: {', '.join(cases[:4])}{' ...' if len(cases) > 4 else ''}" \
               f" ({', '.join(ops)})"


def _main_stem(stem, stems):
    """The run a file stem belongs to: itself, or the run it is a sibling of."""
    for suffix in SIBLING_SUFFIXES:
        if stem.endswith(suffix) and stem[: -len(suffix)] in stems:
            return stem[: -len(suffix)]
    return stem


def load_run(results_dir, name):
    """The Run whose main file is results_dir/name.json (or name.json.gz), with its siblings
    and folder."""
    main = name + ".json"
    if not os.path.exists(os.path.join(results_dir, main)) and \
            os.path.exists(os.path.join(results_dir, main + ".gz")):
        main += ".gz"
    path = os.path.join(results_dir, main)
    try:
        data = json.loads(read_text(path))
    except OSError as err:
        raise UserError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a result file (not UTF-8 text)") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}: not a result file ({json_error(err)})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise UserError(f"{path}: not a Google Benchmark result file (no \"benchmarks\" list)")
    names = list(dict.fromkeys(b.get("run_name", b.get("name", "")) for b in data["benchmarks"]))
    run = Run(name, [main], data.get("context", {}), names)
    for suffix in SIBLING_SUFFIXES:
        if os.path.exists(os.path.join(results_dir, name + suffix + ".json")):
            run.paths.append(name + suffix + ".json")
    if os.path.isdir(os.path.join(results_dir, name)):
        run.paths.append(name + "/")
    return run


# A measured-wire result (`./wirebench wire --matrix`) and a scenario's run (`./wirebench wire
# --scenario NAME`) are files of their own kinds, not Google Benchmark runs: the index lists
# them apart, and publishing a run never removes them.
WIRE_SUFFIX = "-wire"
SCENARIO_SUFFIX = "-scenario"


def scan(results_dir):
    """Every run in results_dir, oldest first (names start with the UTC stamp)."""
    stems = {os.path.basename(cli.result_stem(p)) for p in cli.json_files(results_dir)}
    stems = {s for s in stems if not s.endswith((WIRE_SUFFIX, SCENARIO_SUFFIX))}
    mains = sorted({_main_stem(s, stems) for s in stems})
    return [load_run(results_dir, name) for name in mains]


# A citation of a run in the git history: `git show 3952b19:results/NAME.json`.
HISTORY_CITATION = re.compile(r"git show [0-9a-f]{7,40}:results/[^\s`)]+")


def citing_texts(root):
    """{document path relative to root: its text} for every document that may cite a run."""
    texts = {}
    for pattern in CITING_GLOBS:
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            with open(path, encoding="utf-8", errors="replace") as handle:
                texts[os.path.relpath(path, root)] = handle.read()
    return texts


def citations(root, runs):
    """{run name: [documents under root that cite its copy in the tree]} for every run; a
    citation of the run in the git history does not count."""
    texts = {doc: HISTORY_CITATION.sub("", text) for doc, text in citing_texts(root).items()}
    return {run.name: sorted(doc for doc, text in texts.items() if run.name in text)
            for run in runs}


def published(runs):
    """{machine: its published run}: the newest whole-suite run of each machine."""
    out = {}
    for run in runs:
        if run.whole_suite:
            out[run.machine] = run  # runs are oldest first
    return out


def wire_results(results_dir):
    """The measured-wire result files in results_dir, oldest first."""
    return [os.path.basename(p) for p in cli.json_files(results_dir, f"*{WIRE_SUFFIX}")]


def scenario_results(results_dir):
    """The scenario files (`./wirebench wire --scenario NAME`) in results_dir, oldest first."""
    return [os.path.basename(p) for p in cli.json_files(results_dir, f"*{SCENARIO_SUFFIX}")]


def index_markdown(runs, cited, wire=(), scenarios=()):
    """results/README.md for these runs (and the measured-wire and scenario files, by
    name)."""
    chosen = published(runs)
    latest = max(chosen.values(), key=lambda r: r.name[:16], default=None)
    lines = [
        "# Results",
        "",
        "Written by `./wirebench publish RESULT.json`; do not edit by hand.",
        "",
        "Each machine keeps one published run of the whole suite, named after the machine's CPU",
        "model; a newer one replaces it, and the older one stays in the git history (a document",
        "cites it as `git show REV:results/NAME.json`). A focused run stays while `README.md` or",
        "a file in `docs/` cites it. A run is Google Benchmark's JSON,",
        "`<UTC stamp>-<machine>-<commit>.json` (`.json.gz`, gzip-compressed, when it is over",
        f"{GZIP_OVER // 2**20} MiB; every tool reads either),",
        "with beside it the JSON conformance matrix (`-conformance.json`), the libraries' own",
        "loops (`-standalone.json`), callgrind's instruction counts (`-icount.json`, with",
        "`bench --icount`) and a folder with the report page `report.html`, its summary",
        "`REPORT.md` and charts (`./wirebench report` writes it again).",
        "",
    ]
    if latest:
        lines += [f"Latest published run: [`{latest.name}`]({latest.paths[0]}) "
                  f"({latest.context.get('cpu_model', 'unknown CPU')}, commit {latest.commit}, "
                  f"{latest.date}); its report: [`{latest.name}/report.html`]"
                  f"({latest.name}/report.html), summary [`{latest.name}/REPORT.md`]"
                  f"({latest.name}/REPORT.md).",
                  ""]
    lines += ["| run | machine | commit | date | what it is | benchmarks | cited by |",
              "| --- | --- | --- | --- | --- | ---: | --- |"]
    for run in sorted(runs, key=lambda r: (r.machine, r.name)):
        role = "**published**: " if chosen.get(run.machine) is run else ""
        docs = ", ".join(f"`{d}`" for d in cited.get(run.name, [])) or "-"
        lines.append(f"| [`{run.name}`]({run.paths[0]}) | {run.context.get('cpu_model', '?')} "
                     f"| {run.commit} | {run.date} | {role}{run.description()} "
                     f"| {len(run.benchmark_names):,} | {docs} |")
    if wire:
        lines += ["", "## The measured wire", "",
                  "Real kernel TCP over the emulated link against the transfer model "
                  "(`./wirebench wire --matrix`; `./wirebench wire-table FILE` prints it; "
                  "docs/wire.md):", ""]
        lines += [f"- [`{name}`]({name})" for name in wire]
    if scenarios:
        lines += ["", "## The measured wire" if not wire else "### Scenarios", "",
                  "Published experiments replayed over HTTP on the emulated link, our figures "
                  "beside the published ones (`./wirebench wire --scenario NAME`; "
                  "docs/wire-http.md):", ""]
        lines += [f"- [`{name}`]({name})" for name in scenarios]
    return "\n".join(lines) + "\n"


def plan_publish(runs, new, cited):
    """The runs that publishing `new` removes: of the same machine, what the policy
    (plan_prune) removes once `new` is among the runs, but never `new` itself."""
    return [run for run in plan_prune(runs, cited)
            if run.name != new.name and run.machine == new.machine]


def plan_prune(runs, cited):
    """The runs the policy removes: per machine, every run of the whole suite but the newest
    (a document cites an older one in the git history), and every focused run that nothing
    cites."""
    chosen = published(runs)
    return [run for run in runs
            if chosen.get(run.machine) is not run
            and (run.whole_suite or not cited.get(run.name))]
