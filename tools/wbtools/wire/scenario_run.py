"""A run of `wirebench_wire --scenario NAME`, kept as one result file.

The executable prints JSON lines on stdout (a "context" line, "check" lines of the emulator's
self-check, one "http_request" or "grpc_call" line per call, "scenario_result" lines per
series, and lines of a scenario's own kinds) and its progress on stderr. This module runs it,
passes stderr through, keeps stdout's lines and turns them into a results/<stamp>-<machine>-
<commit>-<NAME>-scenario.json, written atomically under a name that no other file has.
"""

import collections
import datetime
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import threading

from ..results import machine

TYPE = "wirebench-scenario"
SUFFIX = "-scenario.json"
# wirebench_wire's options that take a value: their values are never read as options here.
VALUE_OPTIONS = ("--rate-mbps", "--rtt-ms", "--queue-bytes", "--congestion", "--initcwnd",
                 "--sysctl", "--http", "--scenario", "--transfer", "--cold", "--warm")
# How much of stderr a failed run keeps: its last lines say why it failed.
STDERR_TAIL = 20
# Line types that have a list of their own in the file; every other line goes to "other".
LISTS = {"check": "checks", "scenario_result": "results", "http_request": "requests",
         "grpc_call": "requests"}


def scenario_name(args):
    """The NAME of `--scenario NAME` in wirebench_wire's arguments, or None."""
    name, i = None, 0
    while i < len(args):
        if args[i] in VALUE_OPTIONS:
            if args[i] == "--scenario" and i + 1 < len(args):
                name = args[i + 1]
            i += 2
        else:
            i += 1
    return name


def parse_lines(lines):
    """The file's parts from stdout's lines: context (the "context" line, without its type),
    checks, results, requests and other (every other JSON line, in order), each line as
    printed; not_json holds lines that are not a JSON object."""
    parts = {"context": {}, "checks": [], "results": [], "requests": [], "other": [],
             "not_json": []}
    for line in lines:
        text = line.strip()
        if not text:
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            parts["not_json"].append(text)
        elif value.get("type") == "context" and not parts["context"]:
            parts["context"] = {k: v for k, v in value.items() if k != "type"}
        else:
            parts[LISTS.get(value.get("type"), "other")].append(value)
    return parts


def git_commit(root):
    """(full commit, with "-dirty" when tracked files differ from it; short commit), as
    tools/commands/bench.sh records them: such a result is not reproducible from the commit."""
    def git(*args):
        proc = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True,
                              check=False)
        return proc.stdout.strip() if proc.returncode == 0 else ""
    full = git("rev-parse", "HEAD")
    if not full:
        return "unknown", "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return full + ("-dirty" if dirty else ""), git("rev-parse", "--short", "HEAD") or full[:7]


def run(cmd, stderr=None):
    """Run cmd: its stderr passed through to `stderr` as it comes, its stdout kept.
    Returns (exit status, stdout lines, the last lines of stderr). An interrupt (Ctrl-C)
    reaches the executable too, which removes its namespaces and exits; what it printed
    until then is kept. A status of a signal is 128 + the signal's number, as a shell says."""
    stderr = stderr or sys.stderr
    tail = collections.deque(maxlen=STDERR_TAIL)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", bufsize=1)

    def relay():
        for line in proc.stderr:
            stderr.write(line)
            stderr.flush()
            tail.append(line.rstrip("\n"))
    relay_thread = threading.Thread(target=relay, daemon=True)
    relay_thread.start()
    # A SIGTERM for this process goes on to the executable, whose teardown then runs, and
    # the lines it printed until then are kept, as after a Ctrl-C.
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM,
                                 lambda *_: proc.poll() is None and proc.terminate())
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
        status = proc.wait()
    except KeyboardInterrupt:
        # A terminal's Ctrl-C reaches the whole process group; from elsewhere it reaches
        # only this process, so it is passed on.
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        lines.extend(proc.stdout)
        status = proc.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    relay_thread.join(timeout=5)
    return (128 - status if status < 0 else status), lines, list(tail)


def result_file(name, parts, status, stderr_tail, context):
    """The scenario file: the executable's context line merged with ours (commit, machine,
    date, command), its lines by kind, its exit status and, when it failed, its last lines
    of stderr."""
    out = {"type": TYPE, "scenario": name,
           "context": {**parts["context"], **context},
           "checks": parts["checks"], "results": parts["results"],
           "requests": parts["requests"], "other": parts["other"], "exit_status": status}
    if parts["not_json"]:
        out["not_json"] = parts["not_json"]
    if status != 0:
        out["stderr_tail"] = stderr_tail
    return out


def local_context(root, command, binary, now=None):
    """What the executable does not print: when, where and from which commit it ran."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    commit, short = git_commit(root)
    cpu_model = machine.local_cpu_model()
    return {"date": now.isoformat(timespec="seconds"),
            "stamp": now.strftime("%Y%m%dT%H%M%SZ"), "git_commit": commit,
            "short_commit": short, "cpu_model": cpu_model, "machine": machine.slug(cpu_model),
            "kernel": platform.release(), "host": platform.node(), "command": command,
            "binary": binary}


def default_paths(folder, context, name):
    """results/<stamp>-<machine>-<short commit>-<NAME>-scenario.json, then the same with
    -1, -2, ... before -scenario.json when a run of the same second has that name."""
    safe = re.sub(r"[^A-Za-z0-9_.]+", "_", name) or "unnamed"
    base = os.path.join(folder, f"{context['stamp']}-{context['machine']}-"
                                f"{context['short_commit']}-{safe}")
    yield base + SUFFIX
    for n in range(1, 100):
        yield f"{base}-{n}{SUFFIX}"


def out_paths(path):
    """FILE, then FILE-1.json, FILE-2.json, ... (for --out FILE: never overwritten)."""
    yield path
    stem, ext = os.path.splitext(path)
    for n in range(1, 100):
        yield f"{stem}-{n}{ext or '.json'}"


def write_new(data, paths):
    """Write data as JSON to the first of paths that does not exist, atomically: the text goes
    to a temporary file first, and link(2) fails when the name exists. Returns the path."""
    paths = iter(paths)
    first = next(paths)
    folder = os.path.dirname(os.path.abspath(first))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".scenario-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a result is for everyone to read
        for path in (first, *paths):
            try:
                os.link(tmp, path)
                return path
            except FileExistsError:
                continue
        raise FileExistsError(f"{first}: it and the next 99 names exist")
    finally:
        os.unlink(tmp)


def newest_per_scenario(folder, machine_slug):
    """{scenario name: path} of the newest *-<machine>-*-<name>-scenario.json in folder."""
    pattern = re.compile(r"(\d{8}T\d{6}Z)-" + re.escape(machine_slug) +
                         r"-(?:[0-9a-f]{4,40}|unknown)-(?P<name>.+?)(?:-(?P<n>\d+))?" +
                         re.escape(SUFFIX) + r"(?:\.gz)?")
    found = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return {}
    for base in names:
        match = pattern.fullmatch(base)
        if not match:
            continue
        key = (match.group(1), int(match.group("n") or 0))
        name = match.group("name")
        if name not in found or key > found[name][0]:
            found[name] = (key, os.path.join(folder, base))
    return {name: path for name, (_, path) in sorted(found.items())}
