#!/usr/bin/python3
"""wirebench publish: make a result file its machine's published run in results/.

Copies RESULT.json (gzip-compressed, as NAME.json.gz, when it is over 4 MiB) and the files
beside it (RESULT-conformance.json, -standalone.json,
-icount.json, -threads.json and the report folder RESULT/) into results/ when they are
elsewhere; removes the same machine's other runs of the whole suite (the git history keeps
them: a document cites one as `git show REV:results/NAME.json`, and publish names the documents
that cite a removed run's copy) and its focused runs that neither README.md nor a file in docs/
cites; rewrites results/README.md, the index. Without RESULT.json, applies the same policy to
what results/ holds. The machine is the result's CPU model (its context's cpu_model, shortened
as in its file name). Then commit results/ to publish it. results/ is meant to stay under
40 MB: publish says when it is over.
"""

import argparse
import gzip
import os
import shutil
import subprocess
import sys

# wbtools lives one folder up, in tools/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wbtools import cli  # noqa: E402
from wbtools.results import runs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="wirebench publish", description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result", metavar="RESULT.json", nargs="?",
                        help="the run to publish (none: apply the policy to what results/ holds "
                             "and rewrite the index)")
    parser.add_argument("--results", metavar="DIR", default=os.path.join(ROOT, "results"),
                        help="the results folder (default: results/ of the repository)")
    parser.add_argument("--docs-root", metavar="DIR", default=ROOT,
                        help="where README.md and docs/ are read for citations (default: the "
                             "repository)")
    parser.add_argument("--dry-run", action="store_true",
                        help="say what would be copied and removed; change nothing")
    return parser.parse_args(argv)


def _copy_in(args, source):
    """Copy the run of `source` into the results folder; its name there."""
    src_dir, base = os.path.split(os.path.abspath(source))
    if not base.endswith((".json", ".json.gz")):
        raise cli.UserError(f"{source}: a result file ends in .json (or .json.gz)")
    name = cli.result_stem(base)
    run = runs.load_run(src_dir, name)
    if os.path.samefile(src_dir, args.results):
        return run
    main = run.paths[0]
    squeeze = main.endswith(".json") and \
        os.path.getsize(os.path.join(src_dir, main)) > runs.GZIP_OVER
    targets = [main + ".gz" if squeeze and rel == main else rel for rel in run.paths]
    for rel in targets + ([main] if squeeze else []):
        target = os.path.join(args.results, rel)
        if os.path.exists(target):
            raise cli.UserError(f"{target} exists already: not overwritten")
    for rel, target_rel in zip(run.paths, targets):
        print(f"publish: copy {rel}" + (f" as {target_rel}" if rel != target_rel else ""),
              file=sys.stderr)
        if args.dry_run:
            continue
        src, target = os.path.join(src_dir, rel), os.path.join(args.results, target_rel)
        if rel.endswith("/"):
            shutil.copytree(src, target)
        elif rel != target_rel:
            _gzip_copy(src, target)
        else:
            shutil.copy2(src, target)
    run.paths = targets
    return run


def _squeeze_in_place(args, run):
    """A run already in results/ whose main file is over runs.GZIP_OVER as plain JSON (one
    published before publish compressed) is compressed where it is; the history keeps
    the plain file."""
    main = run.paths[0]
    path = os.path.join(args.results, main)
    if not main.endswith(".json") or not os.path.exists(path) or \
            os.path.getsize(path) <= runs.GZIP_OVER:
        return
    print(f"publish: compress {main} as {main}.gz", file=sys.stderr)
    if args.dry_run:
        return
    _gzip_copy(path, path + ".gz")
    os.remove(path)
    run.paths[0] = main + ".gz"


def _gzip_copy(src, target):
    """target = src gzip-compressed, with no name or time in its header, so that the same
    result compresses to the same bytes."""
    with open(src, "rb") as handle:
        raw = handle.read()
    with open(target + ".tmp", "wb") as out:
        out.write(gzip.compress(raw, compresslevel=9, mtime=0))
    os.replace(target + ".tmp", target)


def main(argv=None):
    args = parse_args(argv)
    if not os.path.isdir(args.results):
        raise cli.UserError(f"{args.results}: no such folder")
    new = _copy_in(args, args.result) if args.result else None
    if new and new.machine == "unknown-cpu":
        raise cli.UserError(f"{args.result}: its context has no cpu_model, so its machine is "
                            "unknown")
    if new and not new.whole_suite:
        print(f"publish: note: {new.name} is {new.description()}, not the whole suite; the "
              "machine's published run stays the newest run of the whole suite",
              file=sys.stderr)
    present = runs.scan(args.results)
    if new and new.name not in {run.name for run in present}:
        present.append(new)  # a dry run copies nothing
    for run in present:
        _squeeze_in_place(args, run)
    cited = runs.citations(args.docs_root, present)
    removed = runs.plan_publish(present, new, cited) if new else runs.plan_prune(present, cited)
    for run in present:
        if new and run.name != new.name and run.machine == new.machine and cited[run.name] \
                and run not in removed:
            print(f"publish: keep {run.name} (cited by {', '.join(cited[run.name])})",
                  file=sys.stderr)
    head = _head_commit()
    for run in removed:
        for doc in cited[run.name]:
            print(f"publish: {doc} cites {run.name}, which leaves the tree: cite it from the "
                  f"history, `git show {head}:results/{run.paths[0]}`, or cite the published "
                  "run", file=sys.stderr)
        for rel in run.paths:
            print(f"publish: remove {rel}", file=sys.stderr)
            if args.dry_run:
                continue
            path = os.path.join(args.results, rel)
            if rel.endswith("/"):
                shutil.rmtree(path)
            else:
                os.remove(path)
    kept = [run for run in present if run not in removed]
    index = os.path.join(args.results, "README.md")
    if not args.dry_run:
        tmp = index + ".tmp"
        text = runs.index_markdown(kept, cited, runs.wire_results(args.results),
                                   runs.scenario_results(args.results))
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, index)
    print(f"publish: {index}: {len(kept)} run(s)" + (" (dry run)" if args.dry_run else ""),
          file=sys.stderr)
    size = _tree_bytes(args.results)
    if size > SIZE_LIMIT:
        print(f"publish: warning: {args.results} holds {size / 2**20:.1f} MiB, over the "
              f"{SIZE_LIMIT / 2**20:.0f} MiB the repository allows it", file=sys.stderr)
    return 0


# What results/ may hold: a clone carries every published file.
SIZE_LIMIT = 40 * 2**20


def _tree_bytes(folder):
    """Bytes of every file under folder."""
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder)
               for f in files)


def _head_commit():
    """The short commit of HEAD, which still holds the files a publish removes."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "HEAD"


if __name__ == "__main__":
    sys.exit(cli.run(main))
