"""How the runs of `wirebench wire --matrix` take their turn on a shared machine: a wait while
something busy runs (a benchmark, a compiler, a browser, another emulator), an exclusive
flock(2) of a file around each run (--lock), taskset (--cpus), and the progress line and
left-out rounds of each run (Runs), for the raw matrix and the matrix per stack alike."""

import fcntl
import subprocess
import sys
import time

from ..cli import UserError
from . import wire_measure

# Another emulator (another run of this tool, or an HTTP scenario) counts as busy too.
BUSY_PATTERN = "wirebench_bench|cc1plus|chromium|wirebench_wire"


def busy():
    """Command lines of the processes that would disturb a measurement."""
    proc = subprocess.run(["pgrep", "-af", BUSY_PATTERN], capture_output=True, text=True,
                          check=False)
    return [line for line in proc.stdout.splitlines() if line.strip()]


def wait_until_quiet(limit_s, log):
    """Wait while something busy runs; returns a note of what ran and how long was waited."""
    start = time.monotonic()
    seen = busy()
    first = list(seen)
    while seen and time.monotonic() - start < limit_s:
        print(f"wire: waiting for a quiet machine: {seen[0][:100]}", file=log)
        time.sleep(30)
        seen = busy()
    waited = time.monotonic() - start
    if not first:
        return None
    return {"waited_s": round(waited, 1), "busy": [s[:160] for s in first],
            "still_busy": bool(seen)}


def wrap(cmd, args):
    """cmd under taskset (--cpus), as the options ask."""
    if args.cpus:
        cmd = ["taskset", "-c", args.cpus, *cmd]
    return cmd


class Lock:
    """An exclusive flock(2) of a file for one run (--lock), or nothing; .waited_s adds up
    the seconds spent waiting for it."""

    def __init__(self, path):
        self.path, self.handle, self.waited_s = path, None, 0.0

    def __enter__(self):
        if self.path:
            try:
                self.handle = open(self.path, "a", encoding="utf-8")
            except OSError as err:
                raise UserError(f"--lock {self.path}: {err.strerror}") from None
            start = time.monotonic()
            fcntl.flock(self.handle, fcntl.LOCK_EX)
            self.waited_s += time.monotonic() - start
        return self

    def __exit__(self, *_):
        if self.handle:
            self.handle.close()  # closing the file releases the lock
            self.handle = None


class Runs:
    """What the runs of one matrix share: the waits for a quiet machine and for the lock,
    the rounds left out, the start time and the progress lines."""

    def __init__(self, args, total, rounds):
        self.wait_quiet, self.total, self.rounds = args.wait_quiet, total, rounds
        self.lock, self.waited, self.waits, self.lost = Lock(args.lock), 0.0, [], []
        self.started, self.index = time.monotonic(), 0

    def run(self, cmd, label, round_index, what, lost_entry):
        """wire_measure.run_group(cmd) under the lock, after a wait for a quiet machine; None
        when every self-check failed: this round of this group is then left out."""
        self.index += 1
        wait = wait_until_quiet(max(0.0, self.wait_quiet - self.waited), sys.stderr)
        if wait:
            self.waited += wait["waited_s"]
            self.waits.append({"before": f"{label} round {round_index}", **wait})
        print(f"wire: [{self.index}/{self.total}] round {round_index + 1}/{self.rounds} {label}: "
              f"{what}, {time.monotonic() - self.started:.0f} s so far", file=sys.stderr,
              flush=True)
        try:
            with self.lock:
                return wire_measure.run_group(cmd)
        except wire_measure.SelfCheckFailed as failed:
            # A stall of the host costs this round of this group: its cases keep the
            # repetitions of the other rounds, and the file says which round went.
            print(f"wire: {label} round {round_index + 1}: the self-check failed "
                  f"{wire_measure.CHECK_ATTEMPTS} times, round left out", file=sys.stderr)
            self.lost.append({**lost_entry, "round": round_index, "failure": str(failed)})
            return None


def lock_context(args, lock, wall):
    """The context's record of --lock: the file, the waits, the wall time without them."""
    if not args.lock:
        return {}
    return {"lock": args.lock, "lock_wait_s": round(lock.waited_s, 1),
            "wall_s_without_lock_waits": round(wall - lock.waited_s, 1)}
