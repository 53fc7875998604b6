"""Names and fields of the measurement-depth benchmarks as the tools read them."""

import json
import os
import sys
import tempfile
import unittest

from wbtools.report import depth
from wbtools.results import noise
from wbtools import results


def _entry(name, cpu, rep=0, **extra):
    entry = {"name": name, "run_name": name.split("_")[0] if name.endswith(("_BigO", "_RMS"))
             else name, "run_type": "iteration", "repetition_index": rep, "iterations": 10,
             "real_time": cpu, "cpu_time": cpu, "time_unit": "us", "threads": 1}
    entry.update(extra)
    return entry


class DepthNames(unittest.TestCase):
    def test_scaling_and_threads_names(self):
        n = results.parse_name("json/message/scaling/decode/simdjson-dom/1000")
        self.assertEqual((n.format, n.dataset, n.rows, n.op, n.library),
                         ("json", "message", 1000, "decode-scaling", "simdjson-dom"))
        fit = results.parse_name("json/message/scaling/decode/simdjson-dom_BigO")
        self.assertEqual((fit.rows, fit.op), (0, "decode-scaling"))
        t = results.parse_name("json/airport/1010/decode/x/from:reference/real_time/threads:2")
        self.assertEqual((t.threads, t.op, t.source), (2, "decode", "reference"))
        self.assertNotEqual(results.run_key(t.full),
                            results.run_key("json/airport/1010/decode/x/from:reference/"
                                            "real_time/threads:4"))


class DepthFile(unittest.TestCase):
    def load(self, entries):
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        self.addCleanup(os.unlink, handle.name)
        json.dump({"context": {}, "benchmarks": entries}, handle)
        handle.close()
        return results.load(handle.name)

    def test_memory_from_last_repetition_only(self):
        name = "json/airport/101/decode/p/from:reference"
        result = self.load([
            _entry(name, 10, 0, allocs_per_iter=5, max_bytes_used=-99999),  # 1.7.1 garbage
            _entry(name, 10, 1, allocs_per_iter=5, max_bytes_used=800,
                   total_allocated_bytes=900, bytes_per_second=1e8)])
        run = result.get(name)
        self.assertEqual(run.memory["max_bytes_used"], 800)
        self.assertNotIn("max_bytes_used", run.counters)
        self.assertIn("| 5 | 0.05 |", depth.memory_section(result))

    def test_scaling_growth_flag_and_noise(self):
        family = "json/message/scaling/decode/p"
        entries = [_entry(f"{family}/{n}", n * (2.0 if n == 10000 else 1.0)) for n in
                   (10, 100, 1000, 10000)]
        entries.append({"name": family + "_BigO", "run_name": family, "run_type": "aggregate",
                        "aggregate_name": "BigO", "cpu_coefficient": 1.5,
                        "real_coefficient": 1.5, "big_o": "N", "time_unit": "us"})
        entries += [_entry("json/airport/101/decode-new-parser/p", cpu, rep) for rep, cpu in
                    enumerate((10, 20, 30))]
        result = self.load(entries)
        text = depth.scaling_section(result)
        self.assertIn("**grows**", text)
        self.assertIn("100.0 %", text)
        self.assertEqual([name for name, _ in noise.noisy(result)],
                         ["json/airport/101/decode-new-parser/p"])

    def test_icount_ratios(self):
        # rapidxml: parse-only 100M, decodes from two inputs 160M and 170M (median 165M).
        icounts = {n: {"name": n, "instructions_per_call": v, "instructions_per_byte": None,
                       "spread": 0.0} for n, v in [
            ("atom/science/8100/parse-only/rapidxml", 100e6),
            ("atom/science/8100/decode/rapidxml/from:reference", 160e6),
            ("atom/science/8100/decode/rapidxml/from:libxml2", 170e6),
            ("atom/science/8100/decode/expat/from:reference", 500e6)]}  # no parse-only: no row
        text = depth.icount_section(self.load([]), icounts)
        self.assertIn("| atom/science/8100 | rapidxml | 100.0M | 165.0M | 1.65x |", text)
        self.assertNotIn("| expat |", text)


class IcountHeap(unittest.TestCase):
    def test_bench_tunables_unless_the_environment_sets_them(self):
        here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "commands")
        sys.path.insert(0, here)
        import icount  # tools/commands/icount.py
        with open(os.path.join(here, "bench.sh"), encoding="utf-8") as handle:
            self.assertIn("tools/heap_tunables.txt", handle.read())  # the bench reads the same file
        self.assertIn("glibc.malloc.trim_threshold=", icount.heap_tunables({}))
        self.assertEqual(icount.heap_tunables({"GLIBC_TUNABLES": "glibc.malloc.mxfast=0"}),
                         "glibc.malloc.mxfast=0")


if __name__ == "__main__":
    unittest.main()
