"""What the machine was doing around a run: the state that moves benchmark figures.

`wirebench bench` records a snapshot before and after the suite in the result's context
(`machine_state`) and warns when it was bad. Each snapshot samples /proc/stat over one
second: how busy each CPU was with work other than ours (before the run nothing of ours
runs; after it, the suite has ended), and how much time the hypervisor stole. Also: the
load averages, runnable tasks, available memory, transparent huge pages, DAMON and the
clock where the kernel exposes it.

  tools/commands/bench_step.py machine-state [--cpu N]
      prints one snapshot as JSON, warnings to stderr
"""

import argparse
import glob
import json
import os
import sys
import time

SAMPLE_SECONDS = 1.0
# Above these a figure measured now is suspect; on a shared 2-core VM a few percent of
# background work and steal are normal and do not move medians beyond their intervals.
BUSY_WARN_PERCENT = 10.0
STEAL_WARN_PERCENT = 5.0
AVAILABLE_WARN_BYTES = 1 << 30


def _read(path, default=None):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return default


def _cpu_times():
    """{cpu index: (busy jiffies, steal jiffies, total jiffies)} from /proc/stat."""
    times = {}
    for line in (_read("/proc/stat", "") or "").splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu":
            continue
        values = [int(v) for v in fields[:8]] + [0] * max(0, 8 - len(fields))
        user, nice, system, idle, iowait, irq, softirq, steal = values[:8]
        busy = user + nice + system + irq + softirq
        times[int(name[3:])] = (busy, steal, busy + idle + iowait + steal)
    return times


def _selected(text):
    """'always [madvise] never' -> 'madvise'."""
    if not text:
        return None
    for word in text.split():
        if word.startswith("[") and word.endswith("]"):
            return word[1:-1]
    return text


def _damon():
    """DAMON's state: kdamond threads of the sysfs interface and the reclaim/LRU-sort modules.
    Its monitoring samples pages in the background and moves timings when it runs."""
    state = {}
    for path in sorted(glob.glob("/sys/kernel/mm/damon/admin/kdamonds/[0-9]*/state")):
        state[f"kdamond{path.split('/')[-2]}"] = _read(path)
    for module in ("damon_reclaim", "damon_lru_sort"):
        enabled = _read(f"/sys/module/{module}/parameters/enabled")
        if enabled is not None:
            state[module] = enabled
    return state or "not present"


def _clock():
    """Per-CPU frequency in MHz: cpufreq when the kernel has it, else /proc/cpuinfo."""
    freqs = {}
    for path in sorted(glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq")):
        value = _read(path)
        if value and value.isdigit():
            freqs[path.split("/")[5]] = int(value) / 1000
    if freqs:
        governor = _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
        return {"source": "cpufreq", "governor": governor, "mhz": freqs}
    for block in (_read("/proc/cpuinfo", "") or "").split("\n\n"):
        fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        if "processor" in fields and "cpu MHz" in fields:
            freqs[f"cpu{fields['processor']}"] = float(fields["cpu MHz"])
    return {"source": "/proc/cpuinfo (the nominal clock on most VMs)", "mhz": freqs}


def _memory_available():
    for line in (_read("/proc/meminfo", "") or "").splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None


def snapshot(sample_seconds=SAMPLE_SECONDS):
    before = _cpu_times()
    time.sleep(sample_seconds)
    after = _cpu_times()
    cpus = {}
    for cpu, (busy, steal, total) in sorted(after.items()):
        if cpu not in before:
            continue
        span = total - before[cpu][2]
        if span <= 0:
            continue
        cpus[f"cpu{cpu}"] = {"busy_percent": round(100 * (busy - before[cpu][0]) / span, 1),
                             "steal_percent": round(100 * (steal - before[cpu][1]) / span, 1)}
    load = (_read("/proc/loadavg", "") or "").split()
    running, _, tasks = (load[3].partition("/") if len(load) > 3 else ("", "", ""))
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "sample_seconds": sample_seconds,
        "cpus": cpus,
        "load_average": [float(v) for v in load[:3]] if len(load) >= 3 else None,
        # Counted while this process reads /proc/loadavg: it includes the reader itself.
        "runnable_tasks": int(running) if running.isdigit() else None,
        "tasks": int(tasks) if tasks.isdigit() else None,
        "memory_available_bytes": _memory_available(),
        "transparent_hugepage": _selected(_read("/sys/kernel/mm/transparent_hugepage/enabled")),
        "transparent_hugepage_defrag":
            _selected(_read("/sys/kernel/mm/transparent_hugepage/defrag")),
        "damon": _damon(),
        "clock": _clock(),
    }


def warnings(state, cpu=None):
    """Sentences for what in a snapshot makes figures suspect; [] when nothing does."""
    out = []
    for name, usage in state.get("cpus", {}).items():
        if cpu is not None and name != f"cpu{cpu}":
            continue
        if usage["busy_percent"] > BUSY_WARN_PERCENT:
            out.append(f"{name} was {usage['busy_percent']} % busy with other work "
                       f"(over {BUSY_WARN_PERCENT:g} %)")
        if usage["steal_percent"] > STEAL_WARN_PERCENT:
            out.append(f"the hypervisor stole {usage['steal_percent']} % of {name} "
                       f"(over {STEAL_WARN_PERCENT:g} %)")
    available = state.get("memory_available_bytes")
    if available is not None and available < AVAILABLE_WARN_BYTES:
        out.append(f"only {available >> 20} MiB of memory available")
    damon = state.get("damon")
    if isinstance(damon, dict) and any(v in ("on", "Y", "1") for v in damon.values()):
        out.append("DAMON is running (it samples pages in the background)")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench_step.py machine-state",
                                     description="One snapshot of the machine's state as JSON "
                                                 "on stdout; warnings on stderr.")
    parser.add_argument("--cpu", type=int, help="warn about this CPU only (the pinned one)")
    parser.add_argument("--sample", type=float, default=SAMPLE_SECONDS, metavar="SECONDS",
                        help=f"the /proc/stat sampling window (default {SAMPLE_SECONDS:g})")
    args = parser.parse_args(argv)
    state = snapshot(args.sample)
    state["warnings"] = warnings(state, args.cpu)
    for line in state["warnings"]:
        print(f"machine state: warning: {line}", file=sys.stderr)
    json.dump(state, sys.stdout, indent=1)
    print()
    return 0

