"""wbtools.clean: every repetition gets its benchmark's memory figures from the last one."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from wbtools import clean


def rep(name, index, peak, total=None, growth=0, allocs=5.0):
    return {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": index,
            "allocs_per_iter": allocs, "max_bytes_used": peak,
            "total_allocated_bytes": total if total is not None else peak * 2,
            "net_heap_growth": growth}


class Clean(unittest.TestCase):
    def test_stale_repetitions_take_the_last_ones_figures(self):
        data = {"benchmarks": [
            rep("a", 0, -7056706696389216352, 2747264671544664419, -1143813012265557472),
            rep("a", 1, 7310016635638790765),
            rep("b", 0, 10),
            rep("a", 2, 760, 22488114, -16),
            {"name": "a_median", "run_name": "a", "run_type": "aggregate"},
            rep("b", 1, 10)]}
        self.assertEqual(clean.clean(data), 2)
        a = [e for e in data["benchmarks"] if e["name"] == "a"]
        self.assertEqual([e["max_bytes_used"] for e in a], [760, 760, 760])
        self.assertEqual([e["total_allocated_bytes"] for e in a], [22488114] * 3)
        self.assertEqual([e["net_heap_growth"] for e in a], [-16] * 3)
        self.assertNotIn("max_bytes_used", data["benchmarks"][4])  # aggregates untouched

    def test_the_file_is_rewritten_in_place(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "r.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump({"context": {"x": 1}, "benchmarks": [rep("a", 0, -1), rep("a", 1, 8)]}, f)
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(clean.main([path]), 0)
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            self.assertEqual(data["context"], {"x": 1})
            self.assertEqual([e["max_bytes_used"] for e in data["benchmarks"]], [8, 8])


if __name__ == "__main__":
    unittest.main()
