#!/usr/bin/python3
"""wirebench's internal steps in Python: what tools/commands/bench.sh runs between its
benchmark processes, and the tools a developer runs by hand. One front end, so
that every entry point of tools/ is a file of tools/commands/ (tools/README.md).

  machine          this machine's short name, for result file names
  machine-state    one snapshot of the machine's state as JSON (load, frequency, governor)
  merge            the band parts and the memory run into one result file
  summary          the run's summary on screen
  noise            the benchmarks whose spread is above a threshold
  wire-concurrency the concurrency model beside a poc run of wirebench_wire
  sample-payloads  the project's sample payloads for `bench --payload`, into a folder

Each step takes its own options: `bench_step.py STEP --help`.
"""

import os
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli, sample_payloads  # noqa: E402
from wbtools.results import machine, machine_state, merge, noise, run_summary  # noqa: E402
from wbtools.wire import wire_concurrency  # noqa: E402

STEPS = {
    "machine": machine.main,
    "machine-state": machine_state.main,
    "merge": merge.main,
    "summary": run_summary.main,
    "noise": noise.main,
    "wire-concurrency": wire_concurrency.main,
    "sample-payloads": sample_payloads.main,
}


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    step = STEPS.get(argv[0])
    if step is None:
        print(f"bench_step.py: no step {argv[0]!r}; steps: {', '.join(STEPS)}", file=sys.stderr)
        return 2
    return step(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv[1:]))
