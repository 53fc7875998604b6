"""The project's JSON conformance corpus, generated from RFC 8259's grammar and
Unicode's Table 3-7 of well-formed UTF-8 (docs/conformance.md).

case: one case; numbers, strings, containers, structure: the cases of each
group; utf8: Table 3-7; corpus: the whole, written and checked.
"""
