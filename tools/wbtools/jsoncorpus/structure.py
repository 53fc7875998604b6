"""Cases of the text as a whole, from RFC 8259 sections 2, 3, 8.1 and 9:

    JSON-text = ws value ws
    ws = *( %x20 / %x09 / %x0A / %x0D )
    value = false / null / true / object / array / number / string

Empty input, whitespace of every kind and of no kind, literals, what follows
the value, comments, the byte order mark (section 8.1: a parser MAY ignore
one) and nesting depth (section 9: a parser may limit it).
"""

from . import utf8
from .case import cases_of

WHITESPACE = {" ": "space", "\t": "tab", "\n": "line_feed", "\r": "carriage_return"}

# Characters that other grammars call whitespace and JSON's ws does not.
NOT_WHITESPACE = ((0x0B, "LINE TABULATION"), (0x0C, "FORM FEED"), (0x00, "NUL"),
                  (0x1C, "FILE SEPARATOR"), (0x1F, "UNIT SEPARATOR"), (0x85, "NEXT LINE"),
                  (0xA0, "NO-BREAK SPACE"), (0x1680, "OGHAM SPACE MARK"),
                  (0x2000, "EN QUAD"), (0x200B, "ZERO WIDTH SPACE"),
                  (0x2028, "LINE SEPARATOR"), (0x2029, "PARAGRAPH SEPARATOR"),
                  (0x202F, "NARROW NO-BREAK SPACE"), (0x2060, "WORD JOINER"),
                  (0x3000, "IDEOGRAPHIC SPACE"), (0xFEFF, "ZERO WIDTH NO-BREAK SPACE"))

BOM = utf8.encode(0xFEFF)


def _whitespace():
    rows = []
    for char, name in WHITESPACE.items():
        rows += [("y", f"{name}_before", f"{char}[]", f"ws before the value: {name}"),
                 ("y", f"{name}_after", f"[]{char}", f"ws after the value: {name}"),
                 ("y", f"{name}_between_tokens",
                  f'{{{char}"a"{char}:{char}[{char}1{char},{char}2{char}]{char}}}',
                  f"ws around every structural character: {name}")]
    every = "".join(WHITESPACE)
    rows += [("y", "every_whitespace_everywhere",
              f'{every}{{{every}"a"{every}:{every}[{every}null{every}]{every}}}{every}',
              "all four ws characters around every token"),
             ("y", "crlf_line_ends", '{\r\n  "a": [\r\n    1\r\n  ]\r\n}\r\n',
              "an indented text with CR LF line ends")]
    for char, name in WHITESPACE.items():
        rows.append(("n", f"only_{name}", char, f"ws alone: JSON-text has a value"))
    rows.append(("n", "only_every_whitespace", "".join(WHITESPACE), "ws alone: no value"))
    for cp, name in NOT_WHITESPACE:
        slug = f"not_whitespace_u{cp:04x}"
        rows.append(("n", slug, "[" + chr(cp) + "1]", f"U+{cp:04X} {name} is not ws"))
    rows.append(("n", "not_whitespace_before_value_u00a0", "\u00a0[]", "U+00A0 is not ws"))
    rows.append(("n", "not_whitespace_after_value_u000c", "[]\x0c", "U+000C is not ws"))
    return rows


def _literals():
    rows = [("y", name, name, f"{name} as the whole text") for name in ("true", "false", "null")]
    rows += [("y", f"{name}_in_whitespace", f" {name} ", f"{name} with ws around it")
             for name in ("true", "false", "null")]
    for slug, text, why in (
            ("true_cut", "tru", "true cut short"), ("null_cut", "nul", "null cut short"),
            ("false_cut", "fals", "false cut short"),
            ("true_cut_in_array", "[tru]", "true cut short"),
            ("null_cut_in_array", "[nul]", "null cut short"),
            ("false_cut_in_array", "[fals]", "false cut short"),
            ("true_capitalised", "True", "literals are lower case"),
            ("false_upper_case", "FALSE", "literals are lower case"),
            ("null_capitalised", "Null", "literals are lower case"),
            ("null_upper_case", "NULL", "literals are lower case"),
            ("none", "None", "not a literal of JSON"), ("nil", "nil", "not a literal of JSON"),
            ("undefined", "undefined", "not a literal of JSON"),
            ("true_then_letter", "truex", "true then a letter"),
            ("null_then_letter", "nulll", "null then a letter"),
            ("two_without_separator", "[truefalse]", "two literals, no separator"),
            ("space_inside", "t rue", "ws inside a literal")):
        rows.append(("n", f"literal_{slug}", text, why))
    return rows


def _around_the_value():
    rows = [
        ("n", "empty", "", "JSON-text = ws value ws: no value"),
        ("n", "two_numbers", "1 2", "one value per text"),
        ("n", "two_strings", '"a" "b"', "one value per text"),
        ("n", "two_literals", "true false", "one value per text"),
        ("n", "two_arrays", "[][]", "one value per text"),
        ("n", "two_objects", "{}{}", "one value per text"),
        ("n", "array_then_object", "[]{}", "one value per text"),
        ("n", "value_then_separator", "[],", "nothing but ws after the value"),
        ("n", "value_then_name_separator", "1:", "nothing but ws after the value"),
        ("n", "value_then_letter", "[] x", "nothing but ws after the value"),
        ("n", "object_then_letter", "{}x", "nothing but ws after the value"),
        ("n", "string_then_letter", '"a"x', "nothing but ws after the value"),
        ("n", "value_then_extra_close", "{}}", "nothing but ws after the value"),
        ("n", "value_then_nul", b"[]\x00", "a NUL after the value: not ws"),
        ("n", "value_then_ill_formed_utf8", b"[]\xff", "an FF byte after the value: not UTF-8"),
        ("n", "value_then_line_comment", "[] // c", "no comments in JSON"),
        ("n", "value_then_block_comment", "[] /* c */", "no comments in JSON"),
        ("n", "value_then_hash_comment", "[] # c", "no comments in JSON"),
        ("n", "line_comment_before", "// c\n[]", "no comments in JSON"),
        ("n", "block_comment_before", "/* c */[]", "no comments in JSON"),
        ("n", "comment_in_array", "[1 /* c */]", "no comments in JSON"),
        ("n", "unclosed_comment", "[] /* c", "no comments in JSON"),
        ("n", "angle_brackets", "<>", "not a value"),
        ("n", "angle_bracketed_null", "[<null>]", "not a value"),
        ("n", "letter", "a", "not a value"),
        ("n", "star", "*", "not a value"),
        ("n", "equals", "=", "not a value"),
        ("n", "name_separator_only", ":", "not a value"),
        ("n", "value_separator_only", ",", "not a value"),
        ("n", "ill_formed_utf8_only", b"\xff", "an FF byte: not UTF-8, not a value"),
        ("n", "continuation_byte_only", b"\x80", "a continuation byte: not UTF-8, not a value"),
        ("n", "nul_only", b"\x00", "a NUL: not ws, not a value"),
        ("n", "bom_only", BOM, "a BOM and no value"),
        ("n", "bom_then_whitespace_only", BOM + b" \n", "a BOM, ws and no value"),
        ("n", "bom_twice", BOM + BOM + b"[]", "a second U+FEFF: not ws, not a value"),
        ("n", "bom_inside_array", b"[" + BOM + b"]", "U+FEFF inside an array: not ws"),
        ("n", "bom_after_value", b"[]" + BOM, "U+FEFF after the value: not ws"),
        ("n", "bom_truncated", BOM[:2] + b"[]", "EF BB: a cut BOM, not UTF-8"),
        ("n", "utf16_bom_then_utf8", b"\xfe\xff[]", "FE FF: not UTF-8 (section 8.1)"),
        ("i", "bom_then_array", BOM + b"[]", "a UTF-8 BOM: a parser MAY ignore it (section 8.1)"),
        ("i", "bom_then_object", BOM + b"{}", "a UTF-8 BOM: a parser MAY ignore it (section 8.1)"),
        ("i", "bom_then_number", BOM + b"1", "a UTF-8 BOM: a parser MAY ignore it (section 8.1)"),
        ("i", "bom_then_string", BOM + b'"a"', "a UTF-8 BOM: a parser MAY ignore it (section 8.1)"),
        ("i", "bom_then_whitespace", BOM + b" [] ", "a UTF-8 BOM: a parser MAY ignore it"),
    ]
    return rows


def _depth():
    limit = "section 9: a parser may limit the depth of nesting"
    rows = [("y", "nested_mixed_16", '[{"a":' * 8 + "1" + "}]" * 8,
             "arrays and objects nested 16 deep")]
    for depth in (100, 500, 1000, 10000):
        rows.append(("i", f"nested_arrays_{depth}", "[" * depth + "]" * depth,
                     f"arrays nested {depth:,} deep: {limit}"))
    for depth in (500, 10000):
        rows.append(("i", f"nested_objects_{depth}", '{"a":' * depth + "1" + "}" * depth,
                     f"objects nested {depth:,} deep: {limit}"))
    rows += [("n", "unclosed_arrays_100000", "[" * 100000, "100,000 begin-arrays, no end"),
             ("n", "unclosed_objects_10000", '{"a":' * 10000, "10,000 open objects, no end"),
             ("n", "deep_then_mismatched", "[" * 1000 + "}" + "]" * 999,
              "1,000 deep, closed by end-object")]
    return rows


def cases():
    """Every case of the text as a whole."""
    return cases_of("structure", _whitespace() + _literals() + _around_the_value() + _depth())
