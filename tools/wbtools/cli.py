"""Shared plumbing for the entry scripts: user errors become one line and exit code 2."""

import json
import sys


class UserError(Exception):
    """An error caused by the input (bad file, unknown name): reported without a traceback."""


def read_json(path, what):
    """The JSON value in path; UserError (one line, no traceback) when it cannot be read or
    is not JSON. what names the file in the message, e.g. "the conformance file"."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as err:
        raise UserError(f"{path}: cannot read {what}: {err.strerror or err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: {what} is not valid JSON ({err})") from None


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
