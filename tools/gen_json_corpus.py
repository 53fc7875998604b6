#!/usr/bin/python3
"""wirebench's JSON conformance corpus, generated from the specifications.

Writes fixtures/conformance/json/: one file per case, named y_ (a JSON text every
parser must accept), n_ (not a JSON text: must be rejected) or i_ (RFC 8259
leaves the answer to the implementation), then the group (array, number,
object, string, structure); and cases.tsv, one line per case with its reason.
The cases come from RFC 8259's grammar and Unicode's Table 3-7 of well-formed
UTF-8; docs/conformance.md explains the choices. The output is deterministic
and committed; a test checks that it equals what this script writes.
"""

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from wbtools import cli  # noqa: E402
from wbtools.jsoncorpus import compare, corpus  # noqa: E402

DEFAULT = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "conformance" / "json"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="tools/gen_json_corpus.py", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", metavar="DIR", type=pathlib.Path, default=DEFAULT,
                        help="where to write (default: fixtures/conformance/json)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true",
                      help="write nothing; list where --out differs, exit 1 if it does")
    what.add_argument("--counts", metavar="DIR", type=pathlib.Path,
                      help="cases per group and label: ours beside another corpus's (a "
                           "folder of y_/n_/i_ files, such as JSONTestSuite's test_parsing)")
    what.add_argument("--compare", nargs=2, metavar=("OURS.json", "THEIRS.json"),
                      help="two `wirebench conformance --json` files, ours and another "
                           "corpus's: on the files both corpora hold with the same bytes, "
                           "do the expected outcomes and every decoder's answers agree? "
                           "Exit 1 if not")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    cases = corpus.build()
    if args.counts:
        if not args.counts.is_dir():
            raise cli.UserError(f"{args.counts}: not a folder")
        theirs = list(corpus.case_files(args.counts))
        if not theirs:
            raise cli.UserError(f"{args.counts}: no y_/n_/i_ .json files")
        print(compare.counts_table([("ours", [c.name for c in cases]), ("theirs", theirs)]))
        for lbl, group, mine, other in compare.short_of([c.name for c in cases], theirs):
            print(f"fewer {lbl}_{group} cases than theirs: {mine} < {other}")
        return 0
    if args.compare:
        lines, differ = compare.compare_matrices(*args.compare)
        print("\n".join(lines))
        return 1 if differ else 0
    if args.check:
        lines = corpus.differences(args.out, cases)
        print("\n".join(lines) if lines
              else f"{args.out}: the generated corpus, {len(cases)} cases")
        return 1 if lines else 0
    written = corpus.write(args.out, cases)
    print(f"{args.out}: {len(cases)} cases and {corpus.INDEX} ({written} files)")
    return 0


if __name__ == "__main__":
    sys.exit(cli.run(main))
