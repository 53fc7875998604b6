"""Shared plumbing for the entry scripts: user errors become one line and exit code 2."""

import sys


class UserError(Exception):
    """An error caused by the input (bad file, unknown name): reported without a traceback."""


def run(main, argv=None):
    """Run main(argv); turn UserError and a broken pipe into a message and an exit code."""
    try:
        return main(argv)
    except UserError as err:
        print(f"wirebench: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `wirebench model ... | head` closes the pipe early: not an error.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
