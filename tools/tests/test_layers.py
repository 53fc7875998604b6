"""The C++ layers' include arrows point one way: model <- codecs <- benchmarks, cli."""

import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)

# Each layer and the project folders its files must not include from.
FORBIDDEN = {
    "generators": ("codecs", "benchmarks", "cli", "tests", "fuzz"),
    "codecs": ("benchmarks", "cli", "tests", "fuzz"),
    "benchmarks": ("cli", "tests", "fuzz"),
    "cli": ("benchmarks", "tests", "fuzz"),
}


def project_includes(layer):
    """(file, included path) for every quoted include under ROOT/layer."""
    for path in sorted((ROOT / layer).rglob("*")):
        if path.suffix in (".cpp", ".hpp", ".def", ".in"):
            for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
                yield path.relative_to(ROOT), target


class LayersTest(unittest.TestCase):
    def test_each_layer_includes_only_layers_below_it(self):
        for layer, forbidden in FORBIDDEN.items():
            with self.subTest(layer=layer):
                found = list(project_includes(layer))
                self.assertTrue(found, f"no includes read under {layer}/")
                wrong = [f"{f}: {t}" for f, t in found if t.split("/")[0] in forbidden]
                self.assertEqual(wrong, [], f"{layer}/ includes from a layer above it")


if __name__ == "__main__":
    unittest.main()
