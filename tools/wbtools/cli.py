"""Shared plumbing for the entry scripts: user errors become one line and exit code 2."""

import argparse
import glob
import gzip
import json
import os
import sys


class UserError(Exception):
    """An error caused by the input (bad file, unknown name): reported without a traceback."""


# A published result of the whole suite is stored gzip-compressed (NAME.json.gz): its
# every repetition makes tens of megabytes of JSON, a tenth of that compressed.
GZIP_MAGIC = b"\x1f\x8b"


def read_text(path):
    """The UTF-8 text of path, decompressed when it is gzip (by its first bytes, so a
    NAME.json.gz renamed still reads). Raises OSError, UnicodeDecodeError."""
    with open(path, "rb") as handle:
        raw = handle.read()
    if raw.startswith(GZIP_MAGIC):
        try:
            raw = gzip.decompress(raw)
        except (EOFError, gzip.BadGzipFile) as err:
            raise OSError(f"damaged gzip data: {err}") from None
    return raw.decode("utf-8")


def result_stem(path):
    """path without .json.gz or .json (any other extension: without it): the name a
    result's siblings (-conformance.json) and report folder are named after."""
    for suffix in (".json.gz", ".json"):
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return os.path.splitext(path)[0]


def json_files(folder, pattern="*"):
    """Paths in folder of pattern + ".json" or ".json.gz" (a large result is stored
    gzip-compressed, and every tool reads either), sorted by name."""
    found = glob.glob(os.path.join(folder, pattern + ".json"))
    found += glob.glob(os.path.join(folder, pattern + ".json.gz"))
    return sorted(found, key=os.path.basename)


def read_json(path, what):
    """The JSON value in path; UserError (one line, no traceback) when it cannot be read or
    is not JSON. what names the file in the message, e.g. "the conformance file"."""
    try:
        return json.loads(read_text(path))
    except OSError as err:
        raise UserError(f"{path}: cannot read {what}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: {what} is not UTF-8 text") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}: {what} is not valid JSON ({json_error(err)})") from None


def write_report(out, figures, markdown):
    """Writes figures as JSON to out and markdown beside it (.md), prints the markdown and
    says on stderr where the JSON went: the closing step of the experiment scripts."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(figures, handle, indent=1, default=str)
    with open(os.path.splitext(out)[0] + ".md", "w", encoding="utf-8") as handle:
        handle.write(markdown + "\n")
    print(markdown)
    print(out, file=sys.stderr)


def json_error(err):
    """A json.JSONDecodeError as a phrase: "unterminated string starting at line 2811,
    column 19". Its msg may end in " at" ("Unterminated string starting at") because str(err)
    appends ": line L column C (char N)"; appending " at line L" to msg read "at at"."""
    what = err.msg[:-len(" at")] if err.msg.endswith(" at") else err.msg
    return f"{what[:1].lower()}{what[1:]} at line {err.lineno}, column {err.colno}"


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the error first and alone: one line naming the command and --help,
    instead of the usage block followed by the error."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def positive_int(text):
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a count: give a number of at least 1")
    return value


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
