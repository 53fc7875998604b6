"""The pieces of a bench run around the executable: merging the bands' parts, and the
machine state's warnings."""

import unittest

from wbtools import cli
from wbtools.results import machine_state, merge


def part(rows, names, commit="abc"):
    benchmarks = []
    for name in names:
        for index in range(2):
            benchmarks.append({"name": name, "run_name": name, "run_type": "iteration",
                               "repetition_index": index, "cpu_time": 1.0})
        benchmarks.append({"name": name + "_median", "run_name": name,
                           "run_type": "aggregate", "aggregate_name": "median"})
    return {"context": {"date": f"start-{rows}", "git_commit": commit, "rows_band": rows,
                        "executable": "wirebench_bench"}, "benchmarks": benchmarks}


class Merge(unittest.TestCase):
    def test_parts_in_order_with_their_bands(self):
        merged = merge.merge([(part("0-999", ["a/x/10/encode/r"]), "0-999", 0.01),
                              (part("8100-", ["a/x/8100/encode/r", "a/x/8100/decode/r"]),
                               "8100-", 0.1)], {"s": 1}, {"s": 2})
        names = [b["name"] for b in merged["benchmarks"] if b["run_type"] == "iteration"]
        self.assertEqual(names, ["a/x/10/encode/r"] * 2 + ["a/x/8100/encode/r"] * 2
                         + ["a/x/8100/decode/r"] * 2)
        self.assertEqual(merged["context"]["bands"], [
            {"rows": "0-999", "min_time_s": 0.01, "started": "start-0-999", "benchmarks": 1},
            {"rows": "8100-", "min_time_s": 0.1, "started": "start-8100-", "benchmarks": 2}])
        self.assertNotIn("rows_band", merged["context"])
        self.assertEqual(merged["context"]["machine_state"], {"before": {"s": 1},
                                                              "after": {"s": 2}})

    def test_parts_of_two_builds_refused(self):
        with self.assertRaises(cli.UserError):
            merge.merge([(part("0-999", ["a"]), "0-999", 0.01),
                         (part("1000-", ["b"], commit="def"), "1000-", 0.04)])


class MergeMemory(unittest.TestCase):
    def memory_run(self, commit="abc"):
        return {"context": {"executable": "wirebench_bench_memory", "git_commit": commit,
                            "allocation_counter": "on", "memory_figures": "per call",
                            "date": "mem"},
                "benchmarks": [{"name": "a/x/10/encode/r", "run_name": "a/x/10/encode/r",
                                "run_type": "iteration", "repetition_index": 0,
                                "allocs_per_iter": 3.0, "max_bytes_used": 640,
                                "total_allocated_bytes": 700, "net_heap_growth": 64}]}

    def test_figures_go_into_every_timed_repetition(self):
        timed = part("0-", ["a/x/10/encode/r", "a/x/10/decode/r"])
        timed["context"]["allocation_counter"] = "off"
        merged = merge.merge([(timed, "0-", 0.01)], memory=self.memory_run())
        by_name = {}
        for entry in merged["benchmarks"]:
            if entry["run_type"] == "iteration":
                by_name.setdefault(entry["name"], []).append(entry.get("max_bytes_used"))
        self.assertEqual(by_name, {"a/x/10/encode/r": [640, 640], "a/x/10/decode/r": [None, None]})
        context = merged["context"]
        self.assertEqual(context["allocation_counter"], "on")
        self.assertEqual(context["memory_figures"], "per call")
        self.assertEqual(context["memory_run"], {"executable": "wirebench_bench_memory",
                                                 "date": "mem", "benchmarks": 1})
        self.assertEqual(context["executable"], "wirebench_bench")

    def test_memory_run_of_another_build_refused(self):
        with self.assertRaises(cli.UserError):
            merge.merge([(part("0-", ["a/x/10/encode/r"]), "0-", 0.01)],
                        memory=self.memory_run(commit="def"))


class MachineState(unittest.TestCase):
    QUIET = {"cpus": {"cpu0": {"busy_percent": 50.0, "steal_percent": 0.0},
                      "cpu1": {"busy_percent": 1.0, "steal_percent": 0.5}},
             "memory_available_bytes": 8 << 30, "damon": "not present"}

    def test_quiet_pinned_cpu(self):
        # The unpinned CPU's load is not the run's concern when --cpu names the pinned one.
        self.assertEqual(machine_state.warnings(self.QUIET, cpu=1), [])
        self.assertEqual(len(machine_state.warnings(self.QUIET)), 1)

    def test_busy_steal_memory_damon(self):
        state = {"cpus": {"cpu1": {"busy_percent": 40.0, "steal_percent": 9.0}},
                 "memory_available_bytes": 100 << 20, "damon": {"kdamond0": "on"}}
        text = " | ".join(machine_state.warnings(state, cpu=1))
        for expected in ("40.0 % busy", "stole 9.0 %", "100 MiB", "DAMON"):
            self.assertIn(expected, text)

    def test_snapshot_reads_this_machine(self):
        state = machine_state.snapshot(sample_seconds=0.05)
        self.assertTrue(state["cpus"])
        for usage in state["cpus"].values():
            self.assertGreaterEqual(usage["busy_percent"], 0)
            self.assertLessEqual(usage["busy_percent"], 100)
        self.assertIsNotNone(state["load_average"])


if __name__ == "__main__":
    unittest.main()
