#!/usr/bin/python3
"""wirebench wire --scenario NAME: a published experiment replayed over the emulated link, saved.

Runs BUILD/wirebench_wire with the same arguments (docs/wire-http.md): its progress goes to
stderr as it comes, its JSON lines are kept and written, atomically and never over another
file, to results/<UTC stamp>-<machine>-<short commit>-<NAME>-scenario.json:
  {"type": "wirebench-scenario", "scenario": NAME,
   "context": the executable's context line with the commit (-dirty when tracked files
              differ from it), machine, date, host, kernel and the command,
   "checks": the self-check lines, "results": the scenario_result lines, "requests": the
   http_request lines, "other": every other line (server errors, a scenario's own kinds),
   "exit_status": the executable's}
The exit status is the executable's. A scenario that fails (its self-check, a call, an
interrupt) still saves what it printed, with its last lines of stderr, and says so; one that
ran nothing (an unknown scenario, a bad option, no root: exit 2 with nothing on stdout)
saves nothing. `./wirebench report` shows the newest file of each scenario of the result's
machine. `--scenario list` and `--help` run wirebench_wire itself. Needs root.
"""

import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.wire import scenario_run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OWN_HELP = """
options of this tool (the others go to wirebench_wire as they are):
  --build DIR   build folder holding wirebench_wire (default build/release)
  --out FILE    the scenario file (default results/<stamp>-<machine>-<commit>-<NAME>-scenario.json);
                an existing FILE is refused before the run, never overwritten
  --no-save     run and print the JSON lines on stdout, save nothing (the executable alone)
  -h, --help    this text (wirebench_wire --help has the link and TCP options)
"""


def split_args(argv):
    """(own options, wirebench_wire's arguments): --build, --out and --no-save are this
    tool's wherever they stand, except as the value of one of wirebench_wire's options."""
    own = {"build": os.path.join(ROOT, "build", "release"), "out": None, "save": True,
           "help": False}
    passed, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--build", "--out"):
            if i + 1 >= len(argv):
                raise cli.UserError(f"{arg} needs a value")
            own[arg[2:]] = argv[i + 1]
            i += 2
            continue
        if arg.startswith(("--build=", "--out=")):
            key, value = arg[2:].split("=", 1)
            own[key] = value
        elif arg == "--no-save":
            own["save"] = False
        elif arg in ("-h", "--help"):
            own["help"] = True
        else:
            passed.append(arg)
            if arg in scenario_run.VALUE_OPTIONS and i + 1 < len(argv):
                passed.append(argv[i + 1])
                i += 1
        i += 1
    return own, passed


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    own, passed = split_args(argv)
    if own["help"]:
        description = __doc__.split("\n\n", 1)[1]
        print("usage: wirebench wire --scenario NAME [--out FILE | --no-save] "
              f"[wirebench_wire OPTIONS]\n\n{description}{OWN_HELP}", end="")
        return 0
    binary = os.path.join(own["build"], "wirebench_wire")
    if not os.access(binary, os.X_OK):
        raise cli.UserError(f"{binary}: no wirebench_wire (build it, or give --build DIR)")
    name = scenario_run.scenario_name(passed)
    if name in (None, "list") or not own["save"]:
        # Nothing to keep: a listing, another kind of run, or saving declined.
        sys.stdout.flush()
        os.execv(binary, [binary, *passed])
    if own["out"] and os.path.exists(own["out"]):
        raise cli.UserError(f"{own['out']}: exists already; not overwritten (give another "
                            "--out, or none for a new name in results/)")
    context = scenario_run.local_context(ROOT, ["wirebench", "wire", *argv], binary)
    status, lines, tail = scenario_run.run([binary, *passed])
    parts = scenario_run.parse_lines(lines)
    if status == 2 and not any(parts[k] for k in ("context", "checks", "results", "requests",
                                                  "other")):
        print(f"wire: {name}: exit 2 before anything ran; nothing saved", file=sys.stderr)
        return status
    result = scenario_run.result_file(name, parts, status, tail, context)
    paths = (scenario_run.out_paths(own["out"]) if own["out"] else
             scenario_run.default_paths(os.path.join(ROOT, "results"), context, name))
    try:
        path = scenario_run.write_new(result, paths)
    except OSError as err:
        raise cli.UserError(f"cannot write the scenario file: {err}") from None
    if status != 0:
        print(f"wire: {name} failed (exit {status}); what it printed is saved "
              f"({len(parts['results'])} results, {len(parts['requests'])} requests, the "
              "last lines of stderr)", file=sys.stderr)
    print(os.path.relpath(path))
    return status


if __name__ == "__main__":
    sys.exit(cli.run(main))
