"""What `./wirebench bench` prints at the end of a run, after the benchmarks' own lines.

  noise        one line: how many benchmarks have a CV above 5 % and the noisiest (REPORT.md
               and the page list them)
  conformance  one line per JSON decoder the run times (every decoder for a run of the whole
               suite): its conformance answers, from `wirebench conformance --json`
  competitors  for a focused run: per question (one payload, one operation, one input) the
               competitors side by side, fastest first, each with its median and 95 % interval
               and its ratio to the fastest with the ratio's 95 % interval

Run as `tools/commands/bench_step.py summary RESULT.json [--conformance FILE] [--competitors]`;
prints to stdout.
"""

import argparse

from .. import results, units
from . import noise
from .holds import question, ratios
from .conformance import corpus_name, load as load_conformance

# A focused run can still hold many questions (`--filter '^json/'`): the screen shows the
# first ones, REPORT.md and the page hold every one.
SHOWN_QUESTIONS = 12
def _title(q):
    fmt, dataset, rows, op, source = q
    return f"{fmt}/{dataset}/{rows} {op}" + (f" from:{source}" if source else "")


def _time(run):
    interval = run.figure_interval()
    shown = units.seconds(run.figure())
    if interval is not None:
        shown += f" [{units.seconds(interval.low)}, {units.seconds(interval.high)}]"
    return shown


def _ratio(entry):
    if entry["verdict"] == "fastest":
        return "fastest"
    if "low" not in entry:  # too few repetitions: the footnote says so, once
        return f"{entry['ratio']:.2f}x"
    interval = f"{entry['ratio']:.2f}x [{entry['low']:.2f}, {entry['high']:.2f}]"
    if entry["verdict"] == "settled":
        return (f"{interval} settled after {entry['settled_after']} rounds "
                f"({entry['confidence']:.0%} interval)")
    return f"{interval} {entry['verdict']}"


def competitors(result, shown=SHOWN_QUESTIONS):
    """The competitors' lines, or [] when no question has two."""
    found = ratios(result)
    if not found:
        return []
    by_question = {}
    for key, entry in found.items():
        run = result.runs[key]
        by_question.setdefault(question(run.name), []).append((run, entry))
    repetitions = sorted({len(run.cpu) for members in by_question.values()
                          for run, _ in members})
    counted = (f"{repetitions[0]}" if len(repetitions) == 1
               else f"{repetitions[0]}-{repetitions[-1]}")
    estimator = ("paired time (the probe's fast time x the median per-round ratio)"
                 if any(run.paired for members in by_question.values() for run, _ in members)
                 else "median")
    lines = [f"Competitors, CPU time per call: {estimator} [95 % interval] over {counted} "
             "repetitions; ratio to the fastest [95 % interval], tied when the interval holds 1"
             + ("; a competitor settled by racing ran fewer rounds: its interval is their "
                "min-max, wider and of lower coverage" if any(
                    e["verdict"] == "settled" for e in found.values()) else "") + ":"]
    for q in sorted(by_question)[:shown]:
        members = sorted(by_question[q], key=lambda m: m[0].figure())
        width = max(len(run.name.library) for run, _ in members)
        times = [_time(run) for run, _ in members]
        time_width = max(len(t) for t in times)
        lines.append(f"  {_title(q)}")
        for (run, entry), shown_time in zip(members, times):
            lines.append(f"    {run.name.library:<{width}}  {shown_time:<{time_width}}  "
                         f"{_ratio(entry)}")
    if len(by_question) > shown:
        lines.append(f"  ... and {len(by_question) - shown} more questions: REPORT.md and the "
                     "page hold every one")
    if any(entry["verdict"] == "too few repetitions" for entry in found.values()):
        lines.append("  (no intervals: a 95 % interval needs at least 6 repetitions of each "
                     "benchmark, the default)")
    return lines


def noise_line(result):
    """One line on the run's noise, or "" when no benchmark is above the threshold."""
    cases = noise.noisy(result)
    if not cases:
        return ""
    name, cv = cases[0]
    return (f"noise: {len(cases)} of {units.count(len(result.runs))} benchmarks have a CV "
            f"above {noise.THRESHOLD:.0%} over the repetitions; the noisiest: {name} "
            f"({units.percent(cv)}); REPORT.md lists them")


def conformance_lines(matrix, decoders=None):
    """The conformance answers of the matrix's decoders (those named in decoders, when
    given): one line per distinct answer, naming the decoders that give it."""
    answers = {}
    for d in matrix["decoders"]:
        if decoders is not None and d["library"] not in decoders:
            continue
        departs = []
        if d["y_accepted"] < d["y_total"]:
            departs.append(f"rejects {d['y_total'] - d['y_accepted']} valid files")
        if d["n_rejected"] < d["n_total"]:
            departs.append(f"accepts {d['n_total'] - d['n_rejected']} invalid files")
        if d["crashed"]:
            departs.append(f"crashed on {d['crashed']}")
        if d["decode_n_rejected"] < d["n_total"]:
            departs.append(f"decodes {d['n_total'] - d['decode_n_rejected']} invalid files")
        answer = "; ".join(departs) if departs else "every y_ file accepted, every n_ rejected"
        answers.setdefault(answer, []).append(d["library"])
    if not answers:
        return []
    corpus = corpus_name(matrix)
    return ([f"JSON conformance ({corpus}, {len(matrix['files'])} files):"] +
            [f"  {', '.join(libraries)}: {answer}" for answer, libraries in answers.items()])


def json_decoders(result):
    """The JSON decoders the run times."""
    return sorted({run.name.library for run in result.runs.values()
                   if run.name.format == "json" and run.name.op in
                   ("decode", "parse-only", "decode-new-parser", "decode-cold-cache")})


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench_step.py summary",
                                     description=__doc__.split("\n\n", 1)[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", metavar="RESULT.json")
    parser.add_argument("--conformance", metavar="FILE",
                        help="`wirebench conformance --json` output: a line per decoder")
    parser.add_argument("--all-decoders", action="store_true",
                        help="every decoder of the conformance file (default: those the run "
                             "times)")
    parser.add_argument("--competitors", action="store_true",
                        help="the competitors of each question side by side")
    args = parser.parse_args(argv)
    result = results.load(args.result)
    lines = []
    text = noise_line(result)
    if text:
        lines.append(text)
    if args.conformance:
        decoders = None if args.all_decoders else set(json_decoders(result))
        lines += conformance_lines(load_conformance(args.conformance), decoders)
    if args.competitors:
        lines += competitors(result)
    if lines:
        print("\n".join(lines))
    return 0

