"""The standalone section of REPORT.md from a small wirebench_standalone file."""

import json
import os
import tempfile
import unittest

from wbtools.results import standalone
from wbtools.cli import UserError


def _bench(name, us, aggregate="median"):
    return {"name": f"{name}_{aggregate}", "run_name": name, "run_type": "aggregate",
            "aggregate_name": aggregate, "cpu_time": us, "time_unit": "us"}


class Standalone(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, data, name="s.json"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(data if isinstance(data, str) else json.dumps(data))
        return path

    def test_ratios_within_the_file(self):
        benches = [
            _bench("standalone/simdjson-dom/json/science/8100", 1000),
            _bench("standalone/simdjson-dom/json/science/8100", 9999, "mean"),  # not a median
            _bench("seam/simdjson-dom/json/science/8100", 1100),
            _bench("standalone/pugixml-dom/atom/science/8100/parse", 6000),
            _bench("standalone/pugixml-dom/atom/science/8100/parse+traverse", 7500),
            _bench("standalone/pugixml-dom/atom/science/8100/parse+walk", 9000),
            _bench("seam/pugixml-dom/atom/science/8100/parse-only", 6000),
            _bench("seam/pugixml-dom/atom/science/8100/decode", 13200),
            _bench("standalone/rapidxml/atom/science/8100/parse", 8000),  # no other loops
        ]
        text = standalone.section(standalone.load(self.write({"benchmarks": benches})))
        self.assertIn("| simdjson-dom | json/science/8100 | 1 ms | 1.1 ms | 1.10x |", text)
        self.assertIn("| pugixml-dom | atom/science/8100 | 6 ms | 7.5 ms (1.25x) | 9 ms (1.50x) "
                      "| 6 ms | 13.2 ms (2.20x) |", text)
        self.assertIn("| rapidxml | atom/science/8100 | 8 ms | - (-) | - (-) | - | - (-) |", text)

    def test_default_flags_against_each_codec_of_the_library(self):
        benches = [
            _bench("default/rapidjson-dom/json/science/8100", 2000),
            _bench("seam/rapidjson-dom/json/science/8100", 4000),
            _bench("seam/rapidjson-dom-fast/json/science/8100", 3000),
            _bench("seam/rapidjson-sax/json/science/8100", 9000),  # another API: not listed
            _bench("default/pugixml-dom/atom/science/8100", 4000),
            _bench("seam/pugixml-dom/atom/science/8100/parse-only", 4400),
            _bench("seam/pugixml-dom-utf8/atom/science/8100/parse-only", 5000),
            _bench("seam/pugixml-dom/atom/science/8100/decode", 9000),  # not a parse
        ]
        text = standalone.section(standalone.load(self.write({"benchmarks": benches})))
        self.assertIn("| rapidjson-dom | json/science/8100 | 2 ms | rapidjson-dom | 4 ms | 2.00x |",
                      text)
        self.assertIn("| rapidjson-dom | json/science/8100 | 2 ms | rapidjson-dom-fast | 3 ms "
                      "| 1.50x |", text)
        self.assertIn("| pugixml-dom | atom/science/8100 | 4 ms | pugixml-dom-utf8 | 5 ms "
                      "| 1.25x |", text)
        self.assertIn("| pugixml-dom | atom/science/8100 | 4 ms | pugixml-dom | 4.4 ms | 1.10x |",
                      text)
        self.assertNotIn("rapidjson-sax", text)
        self.assertNotIn("9 ms", text)

    def test_one_repetition_has_no_aggregates(self):
        one = {"name": "standalone/nlohmann-dom/json/science/8100",
               "run_name": "standalone/nlohmann-dom/json/science/8100", "run_type": "iteration",
               "cpu_time": 2.5, "time_unit": "ms"}
        times = standalone.load(self.write({"benchmarks": [one]}))
        self.assertAlmostEqual(times["standalone/nlohmann-dom/json/science/8100"], 2.5e-3)

    def test_nothing_no_section(self):
        self.assertEqual(standalone.section({}), "")
        self.assertEqual(standalone.section(None), "")

    def test_bad_files_are_user_errors(self):
        for data in ("{not json", {"context": {}}, [1, 2]):
            with self.assertRaises(UserError):
                standalone.load(self.write(data))
        with self.assertRaises(UserError):
            standalone.load(os.path.join(self.tmp.name, "missing.json"))


if __name__ == "__main__":
    unittest.main()
