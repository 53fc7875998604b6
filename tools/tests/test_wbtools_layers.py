"""The packages of wbtools/ import one way (tools/README.md): each only from the packages
before it, so that, for instance, the transfer model never reaches into the report."""

import ast
import pathlib
import unittest

WBTOOLS = pathlib.Path(__file__).resolve().parents[1] / "wbtools"
SHARED = "shared modules"  # cli, units, stats: the modules at the top of wbtools/

# Each package and the packages it may import from.
ALLOWED = {
    SHARED: {SHARED},
    "jsoncorpus": {SHARED},
    "results": {SHARED},
    "transfer": {SHARED, "results"},
    "compare": {SHARED, "results"},
    "wire": {SHARED, "results", "transfer"},
    "page": {SHARED, "results", "transfer", "compare"},
    "report": {SHARED, "results", "transfer", "compare", "page"},
}


def package_of(parts):
    """The package of wbtools.<parts...>: its first part when that is a folder."""
    return parts[0] if parts and (WBTOOLS / parts[0]).is_dir() else SHARED


def imported_packages(path):
    """(line, package) for every import of a wbtools module in the file at path."""
    folder = list(path.relative_to(WBTOOLS).parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = folder[:len(folder) - (node.level - 1)]
        elif (node.module or "").split(".")[0] == "wbtools":
            base = []
        else:
            continue
        module = [p for p in (node.module or "").split(".") if p]
        if not node.level:
            module = module[1:]
        target = base + module
        if target:
            yield node.lineno, package_of(target)
        else:  # from wbtools import a, b: each name is a module or a package
            for alias in node.names:
                yield node.lineno, package_of([alias.name])


class WbtoolsLayersTest(unittest.TestCase):
    def test_every_package_is_placed(self):
        folders = {p.name for p in WBTOOLS.iterdir() if (p / "__init__.py").is_file()}
        self.assertEqual(folders, set(ALLOWED) - {SHARED})

    def test_each_package_imports_only_the_packages_before_it(self):
        for path in sorted(WBTOOLS.rglob("*.py")):
            own = package_of(list(path.relative_to(WBTOOLS).parts[:-1]))
            for line, package in imported_packages(path):
                with self.subTest(file=str(path.relative_to(WBTOOLS)), line=line):
                    self.assertIn(package, ALLOWED[own] | {own},
                                  f"{own} imports from {package}, a package after it")

    def test_the_reader_sees_the_imports(self):
        # Every package imports from one before it; a reader that missed relative or absolute
        # imports would leave some package with none, and pass anything.
        crossing = {package_of(list(path.relative_to(WBTOOLS).parts[:-1]))
                    for path in WBTOOLS.rglob("*.py")
                    for _, package in imported_packages(path)
                    if package != package_of(list(path.relative_to(WBTOOLS).parts[:-1]))}
        self.assertEqual(crossing, set(ALLOWED) - {SHARED})

if __name__ == "__main__":
    unittest.main()
