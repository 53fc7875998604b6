"""String cases from RFC 8259 section 7 and Unicode's Table 3-7:

    string = quotation-mark *char quotation-mark
    char = unescaped / escape ( %x22 / %x5C / %x2F / %x62 / %x66 /
                                %x6E / %x72 / %x74 / %x75 4HEXDIG )
    unescaped = %x20-21 / %x23-5B / %x5D-10FFFF

A JSON text is UTF-8 (section 8.1), so every ill-formed sequence of Table 3-7
is rejected wherever it stands. Section 8.2 leaves an escaped lone surrogate
to the implementation; earlier JSON specifications allowed UTF-16 and UTF-32
texts, which section 8.1 still permits inside a closed ecosystem: those two are
the implementation's choice.
"""

from . import utf8
from .case import cases_of

SHORT_ESCAPES = {'"': "quotation_mark", "\\": "reverse_solidus", "/": "solidus",
                 "b": "backspace", "f": "form_feed", "n": "line_feed", "r": "carriage_return",
                 "t": "tab"}

# Code points whose raw UTF-8 or escape is worth a case of its own.
NONCHARACTERS = (0xFDD0, 0xFDEF, 0xFFFE, 0x1FFFE, 0x1FFFF, 0x10FFFE)
NOTABLE = ((0x2028, "LINE SEPARATOR, which JavaScript strings forbid"),
           (0x2029, "PARAGRAPH SEPARATOR, which JavaScript strings forbid"),
           (0xFEFF, "ZERO WIDTH NO-BREAK SPACE (a BOM) inside a string"),
           (0x0085, "NEXT LINE, a C1 control: only U+0000..U+001F need escaping"),
           (0x009F, "the last C1 control: only U+0000..U+001F need escaping"),
           (0xFFFD, "REPLACEMENT CHARACTER"))


def in_array(content):
    """content (bytes) as the one string of an array."""
    return b'["' + content + b'"]'


def _accepted():
    rows = [("empty", in_array(b""), "string = quotation-mark *char quotation-mark, no char"),
            ("ascii", in_array(b"abc"), "unescaped ASCII"),
            ("printable_ascii", in_array(bytes(c for c in range(0x20, 0x7F) if c not in b'"\\')),
             "every unescaped ASCII character, U+0020..U+007E without quote and reverse solidus"),
            ("comment_like", in_array(b"/* a */ // b"), "comment markers inside a string are text"),
            ("long", in_array(b"x" * 4096), "4,096 characters"),
            ("top_level", b'"abc"', "a string as the whole text"),
            ("top_level_empty", b'""', "an empty string as the whole text"),
            ("all_short_escapes", in_array(b'\\"\\\\\\/\\b\\f\\n\\r\\t'),
             "every two-character escape in a row"),
            ("escaped_reverse_solidus_then_u", in_array(b"\\\\u0041"),
             "an escaped reverse solidus followed by u0041 as text"),
            ("escaped_nul_between", in_array(b"a\\u0000b"), "U+0000 escaped between text")]
    for char, name in SHORT_ESCAPES.items():
        rows.append((f"escape_{name}", in_array(b"\\" + char.encode()), f"the escape \\{char}"))
    for cp in (0x0000, 0x001F, 0x0020, 0x0022, 0x002F, 0x005C, 0x007F, 0x0080, 0x07FF, 0x0800,
               0xD7FF, 0xE000, 0xFFFF):
        rows.append((f"escape_u{cp:04x}", in_array(f"\\u{cp:04X}".encode()),
                     f"U+{cp:04X} as a \\u escape"))
    rows += [("escape_u_lower_hex", in_array(b"\\u00e9"), "4HEXDIG in lower case"),
             ("escape_u_mixed_hex", in_array(b"\\uAbCd"), "4HEXDIG in mixed case")]
    for high, low, what in ((0xD800, 0xDC00, "U+10000, the first pair"),
                            (0xD834, 0xDD1E, "U+1D11E"),
                            (0xDBFF, 0xDFFF, "U+10FFFF, the last pair"),
                            (0xDBFF, 0xDFFE, "the noncharacter U+10FFFE")):
        escapes = f"\\u{high:04X}\\u{low:04X}".encode()
        rows.append((f"escape_pair_{high:04x}_{low:04x}", in_array(escapes),
                     f"a surrogate pair escape: {what} (section 7)"))
    rows.append(("escape_two_pairs", in_array(b"\\ud83d\\ude00\\ud83d\\ude01"),
                 "two surrogate pair escapes in a row, lower-case hex"))
    for cp in (0xFDD0, 0xFFFE):
        rows.append((f"escape_noncharacter_u{cp:04x}", in_array(f"\\u{cp:04X}".encode()),
                     f"the noncharacter U+{cp:04X} escaped: a scalar value, allowed"))
    for cp, row in utf8.row_boundaries():
        if cp < 0x20:
            continue
        also = ", which unescaped (%x5D-10FFFF) includes" if cp == 0x7F else ""
        rows.append((f"utf8_row{row}_u{cp:04x}", in_array(utf8.encode(cp)),
                     f"U+{cp:04X} raw, an edge of Table 3-7 row {row}{also}"))
    for cp in NONCHARACTERS:
        rows.append((f"utf8_noncharacter_u{cp:04x}", in_array(utf8.encode(cp)),
                     f"the noncharacter U+{cp:04X} raw: well-formed UTF-8 of a scalar value"))
    for cp, what in NOTABLE:
        rows.append((f"utf8_u{cp:04x}", in_array(utf8.encode(cp)), f"U+{cp:04X} raw: {what}"))
    rows.append(("utf8_one_of_each_length", in_array("a\u00e9\u20ac\U0001d11e".encode()),
                 "one-, two-, three- and four-byte forms side by side"))
    return [("y", slug, data, why) for slug, data, why in rows]


def _rejected():
    rows = []
    for c in range(0x20):
        rows.append((f"raw_control_u{c:04x}", in_array(b"a" + bytes([c]) + b"b"),
                     f"U+{c:04X} unescaped: unescaped starts at %x20"))
    for slug, text, what in (("bell", b"a", "a"), ("vertical_tab", b"v", "v"),
                             ("zero", b"0", "0"), ("hex_x", b"x41", "x"),
                             ("apostrophe", b"'", "an apostrophe"), ("letter_e", b"e", "e"),
                             ("capital_u", b"U0001F600", "U"), ("capital_b", b"B", "B"),
                             ("capital_n", b"N", "N"), ("capital_t", b"T", "T"),
                             ("space", b" ", "a space"), ("raw_tab", b"\t", "a raw tab"),
                             ("raw_line_feed", b"\n", "a raw line feed"),
                             ("non_ascii", "\u00e9".encode(), "U+00E9"),
                             ("ill_formed_utf8", b"\xff", "an FF byte")):
        rows.append((f"escape_{slug}", in_array(b"\\" + text),
                     f"reverse solidus then {what}: not one of the escapes of section 7"))
    for text, slug in ((b"\\u", "u_no_digit"), (b"\\u1", "u_1_digit"), (b"\\u12", "u_2_digits"),
                       (b"\\u123", "u_3_digits"), (b"\\u12G4", "u_non_hex"),
                       (b"\\u+123", "u_plus"), (b"\\u-123", "u_minus"), (b"\\u 123", "u_space"),
                       (b"\\u0x12", "u_0x"), (b"\\uD800\\u", "u_pair_no_digit"),
                       (b"\\uD800\\uDC0", "u_pair_3_digits"), (b"\\uD800\\x", "u_pair_bad_escape"),
                       (b"\\u\xff000", "u_ill_formed_utf8")):
        rows.append((f"escape_{slug}", in_array(text), "\\u takes exactly 4HEXDIG"))
    rows += [
        ("unclosed", b'["abc', "string ends with quotation-mark"),
        ("unclosed_escaped_quote", b'["abc\\"]', "the closing quotation mark is escaped"),
        ("unclosed_top_level", b'"', "a lone quotation mark"),
        ("unclosed_after_escape", b'["\\', "the text ends inside an escape"),
        ("unclosed_in_u_escape", b'["\\u00', "the text ends inside a \\u escape"),
        ("single_quotes", b"['abc']", "quotation-mark is %x22 only"),
        ("no_quotes", b"[abc]", "a string needs quotation marks"),
        ("backticks", b"[`abc`]", "quotation-mark is %x22 only"),
        ("typographic_quotes", "[\u201cabc\u201d]".encode(), "quotation-mark is %x22 only"),
        ("quote_inside", b'["a"b"]', "an unescaped quotation mark ends the string"),
        ("escape_outside_string", b"[\\u0061]", "an escape outside a string"),
        ("top_level_unquoted", "\u00e9".encode(), "a raw character is no value"),
    ]
    for slug, seq, why in utf8.ill_formed():
        rows.append((f"utf8_{slug}", in_array(b"a" + seq), f"{why}: not UTF-8 (section 8.1)"))
    return [("n", slug, data, why) for slug, data, why in rows]


def _either():
    lone = "an escaped lone surrogate: section 8.2 leaves it to the implementation"
    rows = [(f"lone_u{cp:04x}", in_array(f"\\u{cp:04X}".encode()), f"U+{cp:04X} alone, {lone}")
            for cp in (0xD800, 0xDBFF, 0xDC00, 0xDFFF)]
    rows += [("lone_high_lower_hex", in_array(b"\\udbff"), f"lower-case hex, {lone}"),
             ("lone_high_then_text", in_array(b"\\uD800abc"),
              f"a high surrogate then text, {lone}"),
             ("lone_low_after_text", in_array(b"abc\\uDC00"), f"text then a low surrogate, {lone}"),
             ("lone_low_between", in_array(b"a\\uDFFFb"), f"a low surrogate inside text, {lone}"),
             ("two_highs", in_array(b"\\uD800\\uD800"), f"two high surrogates, {lone}"),
             ("two_lows", in_array(b"\\uDC00\\uDC00"), f"two low surrogates, {lone}"),
             ("inverted_pair", in_array(b"\\uDD1E\\uD834"), f"low before high, {lone}"),
             ("high_then_short_escape", in_array(b"\\uD800\\n"), f"high then \\n, {lone}"),
             ("high_then_bmp_escape", in_array(b"\\uD800\\u0041"), f"high then \\u0041, {lone}"),
             ("high_then_quote_escape", in_array(b'\\uD800\\"'), f"high then \\\", {lone}"),
             ("high_then_raw_pair", in_array(b"\\uD834" + utf8.encode(0x1D11E)),
              f"high then a raw U+1D11E, {lone}"),
             ("pair_then_low", in_array(b"\\uD800\\uDC00\\uDC00"), f"a pair then a low, {lone}"),
             ("high_then_pair", in_array(b"\\uD800\\uD800\\uDC00"), f"a high then a pair, {lone}"),
             ("top_level_lone_high", b'"\\uD800"', f"a string alone, {lone}")]
    text = '["\u00e9"]'
    for codec, bom, name in (("utf-16-le", b"\xff\xfe", "UTF-16LE"),
                             ("utf-16-be", b"\xfe\xff", "UTF-16BE"),
                             ("utf-16-le", b"", "UTF-16LE"), ("utf-16-be", b"", "UTF-16BE"),
                             ("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32LE"),
                             ("utf-32-be", b"\x00\x00\xfe\xff", "UTF-32BE")):
        slug = name.lower().replace("-", "") + ("_bom" if bom else "")
        rows.append((f"text_in_{slug}", bom + text.encode(codec),
                     f"a JSON text in {name}{' with a BOM' if bom else ''}: section 8.1 "
                     "asks for UTF-8 between open systems only"))
    return [("i", slug, data, why) for slug, data, why in rows]


def cases():
    """Every string case, y, n and i."""
    return cases_of("string", _accepted() + _rejected() + _either())
