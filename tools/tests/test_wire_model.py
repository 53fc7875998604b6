"""wire_model.at_revision: the model of a git revision loads with the modules tcp.py imports
beside it (stacks, bbr, h2_flow), so `wire --matrix --before REV` prices the old code."""

import subprocess
import unittest

from wbtools.wire import wire_model

# The last revision before bbr.py: its tcp.py imports stacks.py, and its bbr warm pacing put
# wan json/message/100 warm at 42.95 ms where the current model says 40.39.
BEFORE_BBR = "692c552"


def has_commit(rev):
    proc = subprocess.run(["git", "-C", wire_model._ROOT, "cat-file", "-e", f"{rev}^{{commit}}"],
                          capture_output=True, check=False)
    return proc.returncode == 0


def model_committed():
    """True when the working tree's model files are HEAD's."""
    proc = subprocess.run(["git", "-C", wire_model._ROOT, "diff", "--quiet", "HEAD", "--",
                           "tools/wbtools/transfer", "tools/links.json"],
                          capture_output=True, check=False)
    return has_commit("HEAD") and proc.returncode == 0


class AtRevision(unittest.TestCase):
    @unittest.skipUnless(model_committed(), "no git history, or the model has uncommitted edits")
    def test_head_prices_as_the_working_tree_where_the_model_is_committed(self):
        head, now = wire_model.at_revision("HEAD"), wire_model.current()
        for case in (("wan", "cubic", 164570, "cold"), ("mobile", "reno", 4617, "warm")):
            with self.subTest(case=case):
                self.assertAlmostEqual(head.ms(*case), now.ms(*case), places=6)

    @unittest.skipUnless(has_commit(BEFORE_BBR), f"{BEFORE_BBR} is not in this clone's history")
    def test_a_revision_whose_tcp_imports_stacks_loads(self):
        old = wire_model.at_revision(BEFORE_BBR)
        self.assertAlmostEqual(old.ms("wan", "bbr", 4617, "warm"), 42.95, delta=0.05)
        self.assertAlmostEqual(old.ms("wan", "cubic", 164570, "cold"), 205.6, delta=0.05)


if __name__ == "__main__":
    unittest.main()
