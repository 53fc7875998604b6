"""The codec labels of a result file's context (wbtools.results.labels) in the depth sections."""

import json
import os
import tempfile
import unittest

from wbtools.report import depth
from wbtools.results import labels
from wbtools import results


def _entry(name, cpu, rep=0, **extra):
    entry = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": rep,
             "iterations": 10, "real_time": cpu, "cpu_time": cpu, "time_unit": "us",
             "threads": 1}
    entry.update(extra)
    return entry


class Labels(unittest.TestCase):
    def load(self, context, entries):
        handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        self.addCleanup(os.unlink, handle.name)
        json.dump({"context": context, "benchmarks": entries}, handle)
        handle.close()
        return results.load(handle.name)

    def test_roles_of_operations(self):
        what = labels.Labels({"codec.json.decode.p": "DOM, copying, validates UTF-8",
                              "codec.json.encode.w": "streaming writer",
                              "codec.soap.route.r": "streaming sniff", "library.x": "1"})
        name = results.parse_name
        self.assertEqual(what.of_name(name("json/airport/101/parse-only/p")),
                         "DOM, copying, validates UTF-8")
        self.assertEqual(what.of_name(name("json/message/scaling/encode/w/1000")),
                         "streaming writer")
        self.assertEqual(what.of_name(name("soap/airport/101/route/r")), "streaming sniff")
        self.assertIsNone(what.of_name(name("json/airport/101/compress/gzip")))
        self.assertEqual(len(what.entries()), 3)
        self.assertFalse(labels.Labels({"library.x": "1"}))

    def test_memory_and_new_parser_sections_show_labels(self):
        decode = "json/airport/101/decode/p/from:reference"
        cold = "json/airport/101/decode-new-parser/p"
        entries = [_entry(decode, 10, allocs_per_iter=5, max_bytes_used=800,
                          total_allocated_bytes=900, bytes_per_second=1e8),
                   _entry(cold, 20, bytes_per_second=5e7)]
        result = self.load({"codec.json.decode.p": "SAX, no tree, validates UTF-8"}, entries)
        self.assertIn("| json/airport/101 | decode | p | SAX, no tree, validates UTF-8 | 5 |",
                      depth.memory_section(result))
        self.assertIn("| json/airport/101 | p | SAX, no tree, validates UTF-8 | 20 us |",
                      depth.new_parser_section(result))
        # Without the entries (an older result file): no column.
        old = self.load({}, entries)
        self.assertNotIn(labels.HEADER, depth.memory_section(old))
        self.assertIn("| json/airport/101 | p | 20 us |", depth.new_parser_section(old))


if __name__ == "__main__":
    unittest.main()
