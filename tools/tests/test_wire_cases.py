"""The measured wire finds its payload sizes in results/ whether a result is stored as
NAME.json or gzip-compressed as NAME.json.gz (a published whole-suite run is the latter)."""

import gzip
import json
import os
import tempfile
import unittest

from wbtools import cli
from wbtools.results import runs
from wbtools.wire import wire_cases


def result(sizes):
    """A Google Benchmark result with the reference encoder's wire_bytes of each payload."""
    benchmarks = [{"name": f"{fmt}/{dataset}/{rows}/encode/reference", "run_type": "iteration",
                   "iterations": 1, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "us",
                   "wire_bytes": float(size)}
                  for (fmt, dataset, rows), size in sizes.items()]
    return json.dumps({"context": {}, "benchmarks": benchmarks}).encode()


class GzippedResults(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()

    def write(self, name, data, compress=False):
        path = os.path.join(self.folder, name)
        with open(path, "wb") as handle:
            handle.write(gzip.compress(data) if compress else data)
        return path

    def test_the_sizes_come_from_a_gzipped_result(self):
        wanted = wire_cases.DEFAULT_PAYLOADS
        path = self.write("20261202T195651Z-m-83e55d5.json.gz",
                          result({p: 1000 + i for i, p in enumerate(wanted)}), compress=True)
        # A side file and an older result without the sizes are passed over.
        self.write("20261203T000000Z-m-83e55d5-conformance.json", b"{}")
        self.write("20261201T000000Z-m-1111111.json", result({}))
        found, payloads = wire_cases.sizes_from_folder(self.folder, wanted)
        self.assertEqual(found, path)
        self.assertEqual([p.bytes for p in payloads], [1000, 1001, 1002, 1003])

    def test_no_result_with_the_sizes_is_a_user_error(self):
        self.write("20261201T000000Z-m-1111111.json.gz", result({}), compress=True)
        with self.assertRaises(cli.UserError):
            wire_cases.sizes_from_folder(self.folder)

    def test_wire_and_scenario_files_are_listed_in_either_form(self):
        self.write("20261202T000000Z-m-1111111-wire.json", b"{}")
        self.write("20261203T000000Z-m-2222222-wire.json.gz", b"{}", compress=True)
        self.write("20261203T000000Z-m-2222222-azure-scenario.json.gz", b"{}", compress=True)
        self.assertEqual(runs.wire_results(self.folder),
                         ["20261202T000000Z-m-1111111-wire.json",
                          "20261203T000000Z-m-2222222-wire.json.gz"])
        self.assertEqual(runs.scenario_results(self.folder),
                         ["20261203T000000Z-m-2222222-azure-scenario.json.gz"])


if __name__ == "__main__":
    unittest.main()
