"""tools/commands/icount.py's choice of program: --program picks the executable in the build,
its default selection and the name of the file it writes; a missing executable is one clear
error, never a traceback."""

import os
import sys
import unittest

from wbtools import cli

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "commands"))
import icount  # noqa: E402  tools/commands/icount.py


class Program(unittest.TestCase):
    def test_each_program_has_its_default_selection(self):
        self.assertEqual(icount.parse_args([]).filter, icount.DEFAULT_FILTERS["wirebench_bench"])
        tls = icount.parse_args(["--program", "wirebench_tls_cpu"])
        self.assertEqual(tls.filter, "/handshake/")
        self.assertEqual(icount.parse_args(["--program", "wirebench_tls_cpu", "--filter", "/seal$"])
                         .filter, "/seal$")

    def test_the_tls_counts_are_named_apart(self):
        self.assertTrue(icount.default_out(icount.parse_args(["--program", "wirebench_tls_cpu"]))
                        .endswith("-tls_cpu-icount.json"))
        self.assertRegex(icount.default_out(icount.parse_args([])), r"-[0-9a-f]+-icount\.json$")

    def test_a_missing_executable_is_a_user_error(self):
        args = icount.parse_args(["--program", "wirebench_tls_cpu", "--build", "/nonexistent"])
        with self.assertRaisesRegex(cli.UserError, "no benchmark executable at "
                                    "/nonexistent/wirebench_tls_cpu"):
            icount.run(args)


if __name__ == "__main__":
    unittest.main()
