"""`wirebench publish` and the results index: machine names, which files make a run, which
runs a publish removes, and results/README.md."""

import contextlib
import gzip
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest
from unittest import mock

from wbtools.results import machine, runs
from wbtools import results
from wbtools.cli import UserError, read_text, result_stem

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "commands"))
import publish  # noqa: E402  (tools/commands/publish.py, the entry script)

EPYC = "AMD EPYC (family 26, model 2, stepping 1)"
XEON = "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz (family 6, model 143, stepping 8)"
WHOLE = ["reference/memcpy/1024"] + [f"json/message/{n}/encode/reference" for n in range(1000)]


def write_run(folder, name, cpu_model, names=WHOLE, siblings=("-conformance",), report=True,
              **context):
    """A result file with the given benchmark names, its siblings and report folder."""
    data = {"context": {"cpu_model": cpu_model, "git_commit": name.rsplit("-", 1)[1] + "0" * 33,
                        "date": f"2026-12-01T{name[9:11]}:00:00+00:00", **context},
            "benchmarks": [{"name": n, "run_name": n, "run_type": "iteration"} for n in names]}
    with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    for suffix in siblings:
        with open(os.path.join(folder, name + suffix + ".json"), "w", encoding="utf-8") as handle:
            handle.write("{}")
    if report:
        os.makedirs(os.path.join(folder, name))
        with open(os.path.join(folder, name, "REPORT.md"), "w", encoding="utf-8") as handle:
            handle.write("# report\n")


class MachineNames(unittest.TestCase):
    def test_brand_and_family_model(self):
        self.assertEqual(machine.slug(EPYC), "amd-epyc-f26m2")
        self.assertEqual(machine.slug(XEON), "intel-xeon-platinum-8481c-f6m143")

    def test_unknown(self):
        self.assertEqual(machine.slug(""), "unknown-cpu")
        self.assertEqual(machine.slug("unknown"), "unknown-cpu")

    def test_local_model_reads_the_first_processor(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                    "model name\t: AMD EPYC\nstepping\t: 1\n\nprocessor\t: 1\nmodel name\t: X\n")
        self.addCleanup(os.remove, f.name)
        self.assertEqual(machine.local_cpu_model(f.name), EPYC)


class Publish(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.results = os.path.join(self.root, "results")
        os.makedirs(os.path.join(self.root, "docs"))
        os.makedirs(self.results)
        self.addCleanup(shutil.rmtree, self.root)
        write_run(self.results, "20261201T010000Z-amd-epyc-f26m2-aaaaaaa", EPYC,
                  siblings=("-conformance", "-standalone", "-icount"))
        write_run(self.results, "20261201T020000Z-amd-epyc-f26m2-bbbbbbb", EPYC,
                  names=["atom/science/8100/decode/pugixml-dom/from:reference",
                         "atom/science/8100/parse-only/pugixml-dom"], report=False)
        write_run(self.results, "20261201T030000Z-intel-xeon-platinum-8481c-f6m143-ccccccc", XEON)
        self.new = os.path.join(self.root, "new")
        os.makedirs(self.new)
        write_run(self.new, "20261201T040000Z-amd-epyc-f26m2-ddddddd", EPYC,
                  siblings=("-conformance", "-standalone"))

    def publish(self, *args):
        with contextlib.redirect_stderr(io.StringIO()):
            return publish.main([*args, "--results", self.results, "--docs-root", self.root])

    def listing(self):
        return sorted(os.listdir(self.results))

    def test_a_run_is_its_file_siblings_and_folder(self):
        found = {r.name: r.paths for r in runs.scan(self.results)}
        self.assertEqual(found["20261201T010000Z-amd-epyc-f26m2-aaaaaaa"], [
            "20261201T010000Z-amd-epyc-f26m2-aaaaaaa.json",
            "20261201T010000Z-amd-epyc-f26m2-aaaaaaa-conformance.json",
            "20261201T010000Z-amd-epyc-f26m2-aaaaaaa-standalone.json",
            "20261201T010000Z-amd-epyc-f26m2-aaaaaaa-icount.json",
            "20261201T010000Z-amd-epyc-f26m2-aaaaaaa/"])
        self.assertEqual(len(found), 3)

    def test_whole_suite_or_focused(self):
        kinds = {r.name[:16]: r.whole_suite for r in runs.scan(self.results)}
        self.assertEqual(kinds, {"20261201T010000Z": True, "20261201T020000Z": False,
                                 "20261201T030000Z": True})
        focused = runs.Run("x", context={"benchmark_filter": "^json/"}, benchmark_names=WHOLE)
        self.assertFalse(focused.whole_suite)
        self.assertIn("--filter '^json/'", focused.description())

    def test_the_scope_the_executable_wrote_decides(self):
        # `bench --filter .` selects every benchmark, yet it skips the standalone loops and
        # icount: the executable records run_scope focused, and that is what counts.
        dotted = runs.Run("x", context={"benchmark_filter": ".", "run_scope": "focused",
                                        "run_kind": "focused"}, benchmark_names=WHOLE)
        self.assertFalse(dotted.whole_suite)
        self.assertIn("--filter '.'", dotted.description())
        self.assertTrue(runs.Run("x", context={"benchmark_filter": "", "run_scope": "whole"},
                                 benchmark_names=WHOLE).whole_suite)

    def test_a_focused_filter_dot_run_never_replaces_the_published_run(self):
        write_run(self.new, "20261201T050000Z-amd-epyc-f26m2-eeeeeee", EPYC,
                  benchmark_filter=".", run_scope="focused", run_kind="focused")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            publish.main([os.path.join(self.new, "20261201T050000Z-amd-epyc-f26m2-eeeeeee.json"),
                          "--results", self.results, "--docs-root", self.root])
        self.assertIn("not the whole suite", err.getvalue())
        listing = self.listing()
        self.assertIn("20261201T010000Z-amd-epyc-f26m2-aaaaaaa.json", listing)
        with open(os.path.join(self.results, "README.md"), encoding="utf-8") as f:
            index = f.read()
        rows = {line.split("`")[1]: line for line in index.splitlines()
                if line.startswith("| [`")}
        self.assertIn("**published**: the whole suite",
                      rows["20261201T010000Z-amd-epyc-f26m2-aaaaaaa"])
        self.assertIn("focused: --filter '.'", rows["20261201T050000Z-amd-epyc-f26m2-eeeeeee"])

    def test_replaces_the_machines_uncited_runs_and_keeps_the_rest(self):
        with open(os.path.join(self.root, "docs", "findings.md"), "w", encoding="utf-8") as f:
            f.write("see results/20261201T020000Z-amd-epyc-f26m2-bbbbbbb.json\n")
        self.assertEqual(self.publish(os.path.join(self.new,
                                                   "20261201T040000Z-amd-epyc-f26m2-ddddddd.json")),
                         0)
        listing = self.listing()
        self.assertFalse([n for n in listing if "aaaaaaa" in n], "uncited old run left")
        self.assertIn("20261201T020000Z-amd-epyc-f26m2-bbbbbbb.json", listing)  # cited
        self.assertIn("20261201T030000Z-intel-xeon-platinum-8481c-f6m143-ccccccc.json", listing)
        self.assertIn("20261201T040000Z-amd-epyc-f26m2-ddddddd", listing)  # report folder
        self.assertIn("20261201T040000Z-amd-epyc-f26m2-ddddddd-standalone.json", listing)
        with open(os.path.join(self.results, "README.md"), encoding="utf-8") as f:
            index = f.read()
        self.assertIn("Latest published run: [`20261201T040000Z-amd-epyc-f26m2-ddddddd`]", index)
        self.assertIn("**published**: the whole suite", index)
        self.assertIn("`docs/findings.md`", index)
        self.assertEqual(index.count("| [`2026"), 3)

    def test_a_cited_older_run_of_the_whole_suite_leaves_for_the_history(self):
        with open(os.path.join(self.root, "docs", "methodology.md"), "w", encoding="utf-8") as f:
            f.write("from results/20261201T010000Z-amd-epyc-f26m2-aaaaaaa.json\n")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            publish.main([os.path.join(self.new, "20261201T040000Z-amd-epyc-f26m2-ddddddd.json"),
                          "--results", self.results, "--docs-root", self.root])
        self.assertFalse([n for n in self.listing() if "aaaaaaa" in n], "older whole run left")
        self.assertIn("docs/methodology.md cites 20261201T010000Z-amd-epyc-f26m2-aaaaaaa",
                      err.getvalue())
        self.assertRegex(err.getvalue(), r"git show \w+:results/20261201T010000Z-amd-epyc-f26m2-"
                                         r"aaaaaaa\.json")

    def test_a_history_citation_keeps_nothing_in_the_tree(self):
        with open(os.path.join(self.root, "docs", "findings.md"), "w", encoding="utf-8") as f:
            f.write("see `git show 3952b19:results/20261201T020000Z-amd-epyc-f26m2-bbbbbbb.json`\n")
        self.publish()  # no new run: the policy over what is there
        listing = self.listing()
        self.assertFalse([n for n in listing if "bbbbbbb" in n], "focused run cited only in "
                         "the history left")
        self.assertIn("20261201T010000Z-amd-epyc-f26m2-aaaaaaa.json", listing)  # published
        self.assertIn("20261201T030000Z-intel-xeon-platinum-8481c-f6m143-ccccccc.json", listing)

    def test_publishing_a_focused_run_keeps_the_published_one(self):
        write_run(self.new, "20261201T050000Z-amd-epyc-f26m2-eeeeeee", EPYC,
                  names=["json/message/100/decode/rapidjson-dom/from:reference"], report=False)
        self.publish(os.path.join(self.new, "20261201T050000Z-amd-epyc-f26m2-eeeeeee.json"))
        listing = self.listing()
        self.assertIn("20261201T010000Z-amd-epyc-f26m2-aaaaaaa.json", listing)
        self.assertIn("20261201T050000Z-amd-epyc-f26m2-eeeeeee.json", listing)

    def test_a_wire_result_is_listed_and_kept(self):
        wire = "20261201T050000Z-amd-epyc-f26m2-eeeeeee-wire.json"
        with open(os.path.join(self.results, wire), "w", encoding="utf-8") as f:
            f.write('{"context": {}, "cases": []}\n')  # not a Google Benchmark file
        self.assertEqual(len(runs.scan(self.results)), 3)
        self.assertEqual(self.publish(os.path.join(self.new,
                                                   "20261201T040000Z-amd-epyc-f26m2-ddddddd.json")),
                         0)
        self.assertIn(wire, self.listing())
        with open(os.path.join(self.results, "README.md"), encoding="utf-8") as f:
            self.assertIn(f"- [`{wire}`]({wire})", f.read())

    def test_a_scenario_file_is_listed_and_kept(self):
        wire = "20261201T050000Z-amd-epyc-f26m2-eeeeeee-wire.json"
        scenario = "20261201T060000Z-amd-epyc-f26m2-fffffff-poc-scenario.json"
        for name in (wire, scenario):
            with open(os.path.join(self.results, name), "w", encoding="utf-8") as f:
                f.write('{"type": "wirebench-scenario", "results": []}\n')  # not a run
        self.assertEqual(len(runs.scan(self.results)), 3)
        self.assertEqual(runs.scenario_results(self.results), [scenario])
        self.assertEqual(self.publish(os.path.join(self.new,
                                                   "20261201T040000Z-amd-epyc-f26m2-ddddddd.json")),
                         0)
        self.assertIn(scenario, self.listing())
        with open(os.path.join(self.results, "README.md"), encoding="utf-8") as f:
            index = f.read()
        wire_part = index[index.index("## The measured wire"):]
        self.assertIn(f"- [`{wire}`]({wire})", wire_part)
        self.assertIn(f"- [`{scenario}`]({scenario})", wire_part)
        # Without a -wire.json the scenarios have the section to themselves.
        alone = runs.index_markdown([], {}, (), [scenario])
        self.assertIn("## The measured wire", alone)
        self.assertIn(f"- [`{scenario}`]({scenario})", alone)

    def test_a_large_run_is_stored_gzip_compressed_and_read_back(self):
        name = "20261201T040000Z-amd-epyc-f26m2-ddddddd"
        with mock.patch.object(runs, "GZIP_OVER", 100):
            self.assertEqual(self.publish(os.path.join(self.new, name + ".json")), 0)
            self.assertIn(name + ".json.gz", self.listing())
            self.assertNotIn(name + ".json", self.listing())
            self.assertIn(name + "-standalone.json", self.listing())  # small: as it is
            found = {r.name: r.paths for r in runs.scan(self.results)}
            self.assertEqual(found[name][0], name + ".json.gz")
            with open(os.path.join(self.new, name + ".json"), encoding="utf-8") as f:
                self.assertEqual(json.loads(read_text(os.path.join(self.results,
                                                                   name + ".json.gz"))),
                                 json.load(f))
            # The tools' loader reads a compressed result as it reads any.
            timed = os.path.join(self.root, "timed.json.gz")
            entry = {"name": "json/message/100/encode/reference", "run_type": "iteration",
                     "iterations": 10, "real_time": 2.0, "cpu_time": 2.0, "time_unit": "us"}
            with open(timed, "wb") as f:
                f.write(gzip.compress(json.dumps({"context": {}, "benchmarks": [entry]})
                                      .encode()))
            self.assertEqual(list(results.load(timed).runs), [entry["name"]])
            with open(os.path.join(self.results, "README.md"), encoding="utf-8") as f:
                self.assertIn(f"[`{name}`]({name}.json.gz)", f.read())
            # Publishing it again (or the policy alone) leaves the compressed copy be.
            self.assertEqual(self.publish(), 0)
            self.assertIn(name + ".json.gz", self.listing())
        # A large run published before publish compressed is compressed where it is.
        old = "20261201T030000Z-intel-xeon-platinum-8481c-f6m143-ccccccc"
        with mock.patch.object(runs, "GZIP_OVER", 100):
            self.assertEqual(self.publish(), 0)
        self.assertIn(old + ".json.gz", self.listing())
        self.assertNotIn(old + ".json", self.listing())
        self.assertEqual(result_stem("a/b.json.gz"), "a/b")
        self.assertEqual(result_stem("a/b.json"), "a/b")

    def test_dry_run_changes_nothing(self):
        before = self.listing()
        self.publish("--dry-run", os.path.join(self.new,
                                               "20261201T040000Z-amd-epyc-f26m2-ddddddd.json"))
        self.assertEqual(self.listing(), before)

    def test_refuses_to_overwrite_and_needs_a_cpu_model(self):
        self.publish(os.path.join(self.new, "20261201T040000Z-amd-epyc-f26m2-ddddddd.json"))
        with self.assertRaisesRegex(UserError, "exists already"):
            self.publish(os.path.join(self.new, "20261201T040000Z-amd-epyc-f26m2-ddddddd.json"))
        write_run(self.new, "20261201T050000Z-x-eeeeeee", "", report=False)
        with self.assertRaisesRegex(UserError, "cpu_model"):
            self.publish(os.path.join(self.new, "20261201T050000Z-x-eeeeeee.json"))


class TheRepository(unittest.TestCase):
    """The published tree itself: what the documents cite is there, within its size."""

    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def test_every_cited_run_is_in_results_or_cited_from_the_history(self):
        results = os.path.join(self.ROOT, "results")
        present = {run.name for run in runs.scan(results)}
        present |= {name[:-5] for name in runs.wire_results(results) + runs.scenario_results(results)}
        cited = re.compile(r"results/(\d{8}T\d{6}Z-[a-z0-9-]+?)(?:\.json|/|-conformance|"
                           r"-standalone|-icount|-threads)")
        missing = []
        for doc, text in runs.citing_texts(self.ROOT).items():
            for name in cited.findall(runs.HISTORY_CITATION.sub("", text)):
                if name not in present:
                    missing.append(f"{doc}: {name}")
        self.assertEqual(missing, [], "cite these from the history (`git show REV:results/"
                                      "NAME.json`) or cite the published run")

    def test_results_stay_under_the_size_limit(self):
        size = publish._tree_bytes(os.path.join(self.ROOT, "results"))
        self.assertLess(size, publish.SIZE_LIMIT, f"results/ holds {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    unittest.main()
