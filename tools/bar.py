#!/usr/bin/python3
"""The reproducibility bar of a run in rounds: two default runs of one build, side by side.

Runs (unless given their files) a default `./wirebench bench` (racing) and a `--no-race` one
back to back, a third (racing) on a build whose pugixml-dom decode spins for a tenth of its
time (a worktree of HEAD under build/bar/slowed, patched there, never committed) and, with
--wire, two `./wirebench wire --matrix`; then measures, against the bar:

  fastest call   the same in every link x payload case of `model --json`, or tied (the one
                 run's fastest is tied with the other's): none moved
  settled        the cases where a benchmark the racing run settled is, in the --no-race
                 run's answer, part of the fastest call or a call tied with it (warm and
                 cold): none
  ranking        median Kendall tau of each case's top 10 in the other run's order >= 0.9
  CPU totals     a pairing's CPU total within 3 % in >= 90 % of the link x pairing rows
  compare        `compare` calls <= 2 % of the benchmarks different
  sensitivity    the slowed decoder called slower on >= 90 % of its decode benchmarks
  wall time      the racing run's, against 8 minutes
  wire           every case within +-5 % in both matrix runs, or the flagged cases named

and, beside the bar, how far each estimator (median, minimum, paired time) moves between
the two runs (--estimators A B alone), and within the first run how far its competitors'
round times and per-round ratios spread (--spread A alone).

Prints a Markdown table and writes it with the figures as JSON to --out (default
build/bar-<UTC stamp>.json and .md).

Example, everything (about 35 minutes, plus 10 with --wire), on a quiet machine:
  python3 tools/bar.py --wire
and the analysis of runs made before (A racing, B --no-race):
  python3 tools/bar.py --runs A.json B.json --slowed C.json --wire-runs W1.json W2.json
"""

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtools import cli, compare, results  # noqa: E402
from wbtools.transfer import links, calls, race  # noqa: E402
from wbtools.results import paired  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLOWED = "pugixml-dom"
TOP = 10


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="tools/bar.py", description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", nargs=2, metavar="RESULT.json", help="two runs made before")
    parser.add_argument("--slowed", metavar="RESULT.json", help="the slowed build's run")
    parser.add_argument("--wire", action="store_true", help="also two wire --matrix runs")
    parser.add_argument("--wire-runs", nargs=2, metavar="WIRE.json")
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "build", "bar"),
                        help="where the runs go (default build/bar)")
    parser.add_argument("--out", metavar="FILE.json")
    parser.add_argument("--estimators", nargs=2, metavar="RESULT.json",
                        help="only the estimators' table of two runs")
    parser.add_argument("--spread", metavar="RESULT.json",
                        help="only the within-run table of one run in rounds: how far its "
                             "round times and its per-round ratios spread")
    return parser.parse_args(argv)


def bench(build_dir, out_dir, *options):
    """One default run of the suite; (result path, wall seconds)."""
    started = time.monotonic()
    command = ([os.path.join(ROOT, "wirebench"), "bench"] if build_dir is None else
               [os.path.join(ROOT, "tools", "commands", "bench.sh"), build_dir])
    done = subprocess.run(command + ["--out-dir", out_dir, *options], stdout=subprocess.PIPE,
                          text=True, check=False)
    if done.returncode != 0:
        raise cli.UserError(f"{' '.join(command)} failed (exit {done.returncode})")
    return done.stdout.strip().splitlines()[-1], time.monotonic() - started


def slowed_build(out_dir):
    """wirebench_bench of HEAD with SLOWED's decode spinning for a tenth of its time."""
    tree = os.path.join(out_dir, "slowed")
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "--force", tree, "HEAD"],
                       check=True)
    path = os.path.join(tree, "benchmarks", "register.cpp")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    call = "  time_decode(state, *st->decoder, input, st->out, row_count(g.records()));"
    if "bar: slowed" not in text:
        if call not in text:
            raise cli.UserError(f"{path}: the decode call to slow is not where it was")
        slowed = (
            f"  if (dec.library == std::string_view(\"{SLOWED}\")) {{  // bar: slowed\n"
            "    timed_loop(state, [&] {\n"
            "      const auto t0 = std::chrono::steady_clock::now();\n"
            "      st->decoder->decode(input, st->out);\n"
            "      benchmark::DoNotOptimize(st->out);\n"
            "      const auto took = std::chrono::steady_clock::now() - t0;\n"
            "      while (std::chrono::steady_clock::now() - t0 < took + took / 10) {\n"
            "      }\n"
            "    });\n"
            "    set_throughput(state, input.size(), row_count(g.records()));\n"
            "  } else\n" + call)
        text = "#include <chrono>\n" + text.replace(call, slowed)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    build = os.path.join(tree, "build", "release")
    for command in (["cmake", "--preset", "release", "-S", tree],
                    ["cmake", "--build", build, "-j", str(os.cpu_count()), "--target",
                     "wirebench_bench", "wirebench_bench_memory", "wirebench_cli",
                     "wirebench_standalone"]):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return build


def model_json(path):
    result = results.load(path)
    pairings = calls.collect(result)
    out = {}
    for link in links.pick(links.load_links(None), None):
        for dataset, rows in pairings.cases():
            ranked = calls.rank(pairings.of_case(dataset, rows), link)
            out[(link.name, dataset, rows)] = ranked
    return out


def kendall_tau(order_a, order_b):
    """Kendall's tau between two rankings of the same items (lists, best first)."""
    where = {item: i for i, item in enumerate(order_b)}
    items = [item for item in order_a if item in where]
    n = len(items)
    if n < 2:
        return float("nan")
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            if where[items[i]] < where[items[j]]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def answers(a, b):
    """The fastest-call, ranking and CPU-total figures of two model_json() outputs."""
    same = tied = 0
    taus, agree, rows = [], 0, 0
    moved = []
    for case, ranked_a in a.items():
        ranked_b = b.get(case)
        if not ranked_a or not ranked_b:
            continue
        first_a, first_b = ranked_a[0][0].key, ranked_b[0][0].key
        if first_a == first_b:
            same += 1
        else:
            parts_b = {p.key: parts for p, parts in ranked_b}
            parts_a = {p.key: parts for p, parts in ranked_a}
            if (first_a in parts_b and calls.tied(ranked_b[0][1], parts_b[first_a])) or \
                    (first_b in parts_a and calls.tied(ranked_a[0][1], parts_a[first_b])):
                tied += 1
            else:
                moved.append(case)
        keys_a = [p.key for p, _ in ranked_a]
        keys_b = [p.key for p, _ in ranked_b]
        taus += [kendall_tau(keys_a[:TOP], keys_b), kendall_tau(keys_b[:TOP], keys_a)]
        cpu_b = {p.key: parts["cpu"] for p, parts in ranked_b}
        for p, parts in ranked_a:
            if p.key in cpu_b and parts["cpu"] > 0:
                rows += 1
                agree += abs(cpu_b[p.key] / parts["cpu"] - 1) <= 0.03
    taus = [t for t in taus if t == t]
    return {"cases": len(a), "fastest_same": same, "fastest_tied": tied,
            "fastest_moved": [" ".join(map(str, c)) for c in moved],
            "tau_median": statistics.median(taus) if taus else None,
            "tau_min": min(taus) if taus else None,
            "cpu_rows": rows, "cpu_within_3pct": agree / rows if rows else None}


def settled_in_answer(racing_path, reference_path):
    """["link connection dataset rows: benchmark"] for each benchmark the racing run settled
    that the reference run (--no-race) has in a fastest call, or a call tied with it."""
    settled = {name for name, run in results.load(racing_path).runs.items() if run.settled}
    reference = results.load(reference_path)
    answer = race.in_answer(reference, links.pick(links.load_links(None), None))
    return [f"{' '.join(map(str, case))}: {name}"
            for case, parts in sorted(answer.by_case.items()) for name in sorted(parts & settled)]


def compare_calls(old_path, new_path, only=None):
    """(called different, compared) of `compare` between two files; only: a name filter."""
    found = compare.verdicts(results.load(old_path), results.load(new_path))
    chosen = {n: v for n, v in found.items() if only is None or only(n)}
    return sum(v.call in ("slower", "faster") for v in chosen.values()), len(chosen), \
        sum(v.call == "slower" for v in chosen.values())


def _paired_with(quantile):
    """The paired time with the probe's fast time taken as this quantile of its runs."""
    def estimate(result, run):
        probe = result.runs.get(run.paired.get("paired_probe", "")) if run.paired else None
        if probe is None or not run.ratios["cpu"]:
            return float("nan")
        return paired.quantile(probe.cpu, quantile) * statistics.median(run.ratios["cpu"].values())
    return estimate


ESTIMATORS = {
    "median": lambda result, run: run.median(),
    "minimum": lambda result, run: min(run.cpu) if run.cpu else float("nan"),
    "paired (the file's)": lambda result, run: run.figure() if run.paired else float("nan"),
    "paired, probe's minimum": _paired_with(0.0),
    "paired, probe's 10th percentile": _paired_with(0.1),
    "paired, probe's median": _paired_with(0.5),
}


def estimators(old_path, new_path):
    """{estimator: (median, p90, share above 5 %) of |new/old - 1|} over the benchmarks of
    two runs: how far each estimator moves between runs of one build."""
    old, new = results.load(old_path), results.load(new_path)
    out = {}
    for label, estimate in ESTIMATORS.items():
        moves = []
        for name, before in old.runs.items():
            after = new.runs.get(name)
            if after is None or before.error or after.error or name.startswith("calibration/"):
                continue
            a, b = estimate(old, before), estimate(new, after)
            if a > 0 and b > 0:
                moves.append(abs(b / a - 1))
        if moves:
            moves.sort()
            out[label] = (statistics.median(moves), moves[int(0.9 * (len(moves) - 1))],
                          sum(m > 0.05 for m in moves) / len(moves), len(moves))
    return out


def estimator_table(found):
    lines = ["| estimator | benchmarks | median | p90 | share above 5 % |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label, (median, p90, share, count) in found.items():
        lines.append(f"| {label} | {count:,} | {100 * median:.1f} % | {100 * p90:.1f} % | "
                     f"{100 * share:.0f} % |")
    return "\n".join(lines)


def spread(path):
    """Within one run in rounds, per competitor: the largest over the smallest of its round
    times and of its per-round ratios to the probe (median and p90 over the competitors),
    and the share of its rounds above 1.3x its fastest, by time and by ratio."""
    result = results.load(path)
    out = {}
    for label, values_of in (("time", lambda run: run.cpu),
                             ("paired ratio", lambda run: list(run.ratios["cpu"].values()))):
        widths, slow, total = [], 0, 0
        for run in result.runs.values():
            values = values_of(run)
            if run.error or not run.ratios["cpu"] or len(values) < 2 or min(values) <= 0:
                continue
            widths.append(max(values) / min(values))
            slow += sum(v > 1.3 * min(values) for v in values)
            total += len(values)
        if widths:
            widths.sort()
            out[label] = (len(widths), statistics.median(widths),
                          widths[int(0.9 * (len(widths) - 1))], slow / total)
    return out


def spread_table(found):
    lines = ["| per round | competitors | max/min: median | max/min: p90 | rounds above 1.3x "
             "the fastest |", "| --- | ---: | ---: | ---: | ---: |"]
    for label, (count, median, p90, share) in found.items():
        lines.append(f"| {label} | {count:,} | {median:.3f} | {p90:.3f} | {100 * share:.1f} % |")
    return "\n".join(lines)


def wire_figures(paths):
    out = []
    for path in paths:
        data = cli.read_json(path, "wire result")
        # The model of the code that measured: "after" beside a --before, else "model".
        ratios = [(c["model"].get("after") or c["model"]["model"])["ratio"] for c in data["cases"]
                  if c["model"].get("after") or c["model"].get("model")]
        out.append({"file": path, "cases": len(ratios),
                    "within_5pct": sum(abs(r - 1) <= 0.05 for r in ratios),
                    "flagged": [f"{c['profile']} {c['payload']} {c['congestion']} "
                                f"{c['connection']} rounds {c['disagreeing_rounds']}"
                                for c in data["cases"] if c.get("disagreeing_rounds")]
                    + [f"{c['profile']} {c['payload']} {c['congestion']} {c['connection']} "
                       f"round(s) {c['rounds_left_out']} left out (self-check failed)"
                       for c in data["cases"] if c.get("rounds_left_out")]})
    return out


def table(figures):
    f = figures
    ans = f["answers"]
    rows = [
        ("fastest call", "every case the same or tied, none moved",
         f"{ans['fastest_same']} of {ans['cases']} the same, {ans['fastest_tied']} tied, "
         f"{len(ans['fastest_moved'])} moved {ans['fastest_moved'] or ''}"),
        ("settled in the answer", "none (the --no-race run's fastest calls and ties)",
         f"{len(f.get('settled_in_answer', []))}"
         f"{': ' + '; '.join(f['settled_in_answer']) if f.get('settled_in_answer') else ''}"),
        ("ranking", "median Kendall tau >= 0.9",
         f"median {ans['tau_median']:.2f} (lowest {ans['tau_min']:.2f})"),
        ("CPU totals", ">= 90 % of rows within 3 %",
         f"{100 * ans['cpu_within_3pct']:.1f} % of {ans['cpu_rows']:,} rows"),
        ("compare", "<= 2 % called different",
         f"{f['compare'][0]} of {f['compare'][1]} ({100 * f['compare'][0] / f['compare'][1]:.1f} %)"),
    ]
    if f.get("sensitivity"):
        called, total, slower = f["sensitivity"]
        rows.append(("sensitivity", f">= 90 % of {SLOWED}'s decodes called slower",
                     f"{slower} of {total} ({100 * slower / max(1, total):.0f} %)"))
    for index, wall in enumerate(f.get("wall_s", [])):
        rows.append(("wall time, racing run" if index == 0 else "wall time, --no-race run",
                     "<= 480 s" if index == 0 else "(the reference)", f"{wall:.0f} s"))
    for index, wire in enumerate(f.get("wire", [])):
        rows.append((f"wire, run {index + 1}", "every case within +-5 %, or the stall named",
                     f"{wire['within_5pct']} of {wire['cases']}; flagged: "
                     f"{'; '.join(wire['flagged']) or 'none'}"))
    lines = ["| bar | target | measured |", "| --- | --- | --- |"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    lines += ["", "Between the two runs, by estimator (|B/A - 1| per benchmark):", "",
              estimator_table(f["estimators"]), "", "Within the first run:", "",
              spread_table(f["spread"])]
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    if args.estimators:
        print(estimator_table(estimators(*args.estimators)))
        return 0
    if args.spread:
        print(spread_table(spread(args.spread)))
        return 0
    os.makedirs(args.out_dir, exist_ok=True)
    figures = {}
    if args.runs:
        first, second = args.runs
    else:
        (first, wall_a), (second, wall_b) = (bench(None, args.out_dir, *options)
                                             for options in ((), ("--no-race",)))
        figures["wall_s"] = [wall_a, wall_b]
    figures["runs"] = [first, second]
    figures["answers"] = answers(model_json(first), model_json(second))
    figures["settled_in_answer"] = settled_in_answer(first, second)
    figures["compare"] = compare_calls(first, second)[:2]
    figures["estimators"] = estimators(first, second)
    figures["spread"] = spread(first)
    slowed = args.slowed
    if slowed is None and not args.runs:
        slowed, _ = bench(slowed_build(args.out_dir), args.out_dir)
    if slowed:
        figures["slowed"] = slowed
        figures["sensitivity"] = compare_calls(
            first, slowed, lambda n: f"/decode/{SLOWED}/" in n)
    wire_runs = args.wire_runs
    if args.wire and not wire_runs:
        wire_runs = []
        for _ in range(2):
            done = subprocess.run([os.path.join(ROOT, "wirebench"), "wire", "--matrix"],
                                  stdout=subprocess.PIPE, text=True, check=True)
            wire_runs.append(os.path.join(ROOT, done.stdout.strip().splitlines()[-1]))
    if wire_runs:
        figures["wire"] = wire_figures(wire_runs)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or os.path.join(ROOT, "build", f"bar-{stamp}.json")
    cli.write_report(out, figures, table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
