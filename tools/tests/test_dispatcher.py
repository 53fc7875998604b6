"""./wirebench, the dispatcher: every command's help names `./wirebench COMMAND` (not the
script or executable behind it) and builds nothing, `help COMMAND` is `COMMAND --help`, and
an unknown command is one line of error that points to --help."""

import os
import pathlib
import re
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WIREBENCH = ROOT / "wirebench"
REAL_BUILD = pathlib.Path(os.environ.get("WIREBENCH_BUILD", ROOT / "build" / "release"))
# The commands whose help is a script's or wire/usage.txt: none needs a build.
SCRIPTED = ("bench", "test", "build", "fuzz", "wire", "icount", "ab", "model", "report",
            "compare", "publish", "wire-table", "slow-windows")


def wirebench(*args, build):
    # An empty build folder: a command that tried to build or to run an executable would
    # fail, so a help that works in it built nothing.
    return subprocess.run([str(WIREBENCH), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "BUILD": str(build), "WIREBENCH_NO_INSTALL": "1"},
                          check=False)


class Help(unittest.TestCase):
    def setUp(self):
        self.empty = tempfile.TemporaryDirectory(prefix="wirebench-no-build-")
        self.addCleanup(self.empty.cleanup)

    def test_each_command_names_itself_and_builds_nothing(self):
        for command in SCRIPTED:
            with self.subTest(command=command):
                proc = wirebench(command, "--help", build=self.empty.name)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                first = proc.stdout.splitlines()[0]
                self.assertRegex(first, rf"^usage: (\./)?wirebench {re.escape(command)}(\s|$)")
                self.assertNotRegex(proc.stdout, r"usage: tools/|usage: wirebench_")
                self.assertEqual(os.listdir(self.empty.name), [])

    def test_matrix_with_its_own_build_builds_nothing(self):
        # --build names the executable's folder: the dispatcher leaves BUILD alone and the
        # matrix's own error (a missing run to merge) comes back, not a compiler's.
        with tempfile.TemporaryDirectory(prefix="wirebench-own-build-") as own:
            proc = wirebench("wire", "--matrix", "--build", own, "--merge",
                             os.path.join(own, "missing-wire.json"), build=self.empty.name)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("missing-wire.json", proc.stderr)
        self.assertEqual(os.listdir(self.empty.name), [])

    def test_help_command_is_command_help(self):
        for command in ("bench", "wire", "fuzz", "model"):
            with self.subTest(command=command):
                by_help = wirebench("help", command, build=self.empty.name)
                by_option = wirebench(command, "--help", build=self.empty.name)
                self.assertEqual(by_help.returncode, 0, by_help.stderr)
                self.assertEqual(by_help.stdout, by_option.stdout)

    @unittest.skipUnless((REAL_BUILD / "wirebench_cli").is_file(),
                         f"no wirebench_cli in {REAL_BUILD} (build it, or set WIREBENCH_BUILD)")
    def test_help_encode_is_encode_s_help(self):
        proc = wirebench("help", "encode", build=REAL_BUILD)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout.splitlines()[0], r"^usage: (\./)?wirebench encode ")

    def test_bare_help_lists_the_commands(self):
        proc = wirebench("help", build=self.empty.name)
        self.assertEqual(proc.returncode, 0)
        for command in SCRIPTED + ("encode", "decode", "list"):
            self.assertRegex(proc.stdout, rf"(?m)^  {re.escape(command)} ")


class UnknownCommand(unittest.TestCase):
    def test_one_line_error_first(self):
        with tempfile.TemporaryDirectory() as build:
            for args in (("nosuch",), ("help", "nosuch")):
                with self.subTest(args=args):
                    proc = wirebench(*args, build=build)
                    self.assertEqual(proc.returncode, 2)
                    self.assertEqual(proc.stdout, "")
                    self.assertEqual(proc.stderr, "wirebench: error: unknown command 'nosuch' "
                                                  "(./wirebench --help lists the commands)\n")


if __name__ == "__main__":
    unittest.main()
