"""What `./wirebench bench` prints at the end of a run: the competitors of each question side
by side with their ratio and its interval, the conformance of the run's JSON decoders in a
line per answer, and the noise in one line."""

import unittest

from wbtools import results
from wbtools.results import run_summary
from wbtools.results import holds


def result_of(times_by_name):
    """A ResultFile of runs with the given cpu times (seconds per repetition)."""
    runs = {}
    for name, times in times_by_name.items():
        runs[name] = results.Run(results.parse_name(name), cpu=list(times), real=list(times))
    return results.ResultFile("focused.json", {}, runs)


FAST = "json/message/100/decode/simdjson-dom/from:reference"
SLOW = "json/message/100/decode/rapidjson-dom/from:reference"
TWIN = "json/message/100/decode/nlohmann-dom/from:reference"


class Competitors(unittest.TestCase):
    def test_fastest_first_with_ratio_and_interval(self):
        result = result_of({SLOW: [30e-6, 31e-6, 32e-6, 30e-6, 31e-6, 33e-6],
                            FAST: [10e-6, 10.5e-6, 10e-6, 11e-6, 10e-6, 10.2e-6]})
        lines = run_summary.competitors(result)
        self.assertIn("over 6 repetitions", lines[0])
        self.assertEqual(lines[1], "  json/message/100 decode from:reference")
        self.assertRegex(lines[2], r"^    simdjson-dom  +10\.\d us \[10 us, 11 us\] +fastest$")
        self.assertRegex(lines[3], r"^    rapidjson-dom +31 us \[30 us, 33 us\] +3\.\d\dx "
                                   r"\[2\.\d\d, 3\.\d\d\] slower$")
        self.assertEqual(len(lines), 4)

    def test_overlapping_samples_are_tied(self):
        result = result_of({FAST: [10e-6, 11e-6, 12e-6, 10e-6, 11e-6, 12e-6],
                            TWIN: [10.5e-6, 11.5e-6, 12.5e-6, 10e-6, 11e-6, 12e-6]})
        entry = holds.ratios(result)[TWIN]
        self.assertEqual(entry["verdict"], "tied")
        self.assertLessEqual(entry["low"], 1)
        self.assertGreaterEqual(entry["high"], 1)
        self.assertTrue(run_summary.competitors(result)[-1].endswith(" tied"))

    def test_too_few_repetitions_say_so_once(self):
        result = result_of({FAST: [10e-6, 11e-6], SLOW: [30e-6, 31e-6]})
        lines = run_summary.competitors(result)
        self.assertRegex(lines[3], r"rapidjson-dom +30\.5 us +2\.\d\dx$")
        self.assertIn("6 repetitions", lines[-1])
        self.assertEqual(sum("repetitions" in line for line in lines[1:]), 1)

    def test_a_question_without_competitors_prints_nothing(self):
        self.assertEqual(run_summary.competitors(result_of({FAST: [1e-6] * 6})), [])

    def test_long_runs_show_the_first_questions(self):
        times = {}
        for rows in range(1, 20):
            for library in ("a", "b"):
                times[f"json/message/{rows}/encode/{library}"] = [1e-6] * 6
        lines = run_summary.competitors(result_of(times), shown=3)
        self.assertEqual(sum(line.startswith("  json/") for line in lines), 3)
        self.assertIn("and 16 more questions", lines[-1])


class Conformance(unittest.TestCase):
    MATRIX = {"files": [{}] * 317, "corpus_label": "the project's corpus", "decoders": [
        {"library": "simdjson-dom", "y_total": 95, "y_accepted": 95, "n_total": 187,
         "n_rejected": 187, "i_total": 35, "i_accepted": 4, "crashed": 0,
         "decode_n_rejected": 187},
        {"library": "rapidjson-dom", "y_total": 95, "y_accepted": 95, "n_total": 187,
         "n_rejected": 187, "i_total": 35, "i_accepted": 10, "crashed": 0,
         "decode_n_rejected": 187},
        {"library": "lenient", "y_total": 95, "y_accepted": 94, "n_total": 187,
         "n_rejected": 180, "i_total": 35, "i_accepted": 10, "crashed": 1,
         "decode_n_rejected": 187}]}

    def test_the_run_s_decoders_only(self):
        lines = run_summary.conformance_lines(self.MATRIX, {"simdjson-dom", "rapidjson-dom"})
        self.assertEqual(lines, ["JSON conformance (the project's corpus, 317 files):",
                                 "  simdjson-dom, rapidjson-dom: every y_ file accepted, every "
                                 "n_ rejected"])

    def test_departures_named(self):
        lines = run_summary.conformance_lines(self.MATRIX)
        self.assertEqual(lines[-1], "  lenient: rejects 1 valid files; accepts 7 invalid files; "
                                    "crashed on 1")

    def test_json_decoders_of_the_run(self):
        result = result_of({FAST: [1e-6], "json/message/100/encode/rapidjson": [1e-6],
                            "atom/message/100/decode/expat/from:reference": [1e-6]})
        self.assertEqual(run_summary.json_decoders(result), ["simdjson-dom"])


class Noise(unittest.TestCase):
    def test_quiet_run_prints_no_line(self):
        self.assertEqual(run_summary.noise_line(result_of({FAST: [1e-6] * 6})), "")

    def test_noisy_run_in_one_line(self):
        line = run_summary.noise_line(result_of({FAST: [1e-6, 2e-6] * 3, SLOW: [1e-6] * 6}))
        self.assertTrue(line.startswith("noise: 1 of 2 benchmarks have a CV above 5%"), line)
        self.assertNotIn("\n", line)


if __name__ == "__main__":
    unittest.main()
