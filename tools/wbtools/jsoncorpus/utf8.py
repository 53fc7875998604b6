"""Unicode's Table 3-7, Well-Formed UTF-8 Byte Sequences, and the ill-formed
sequences it rules out, class by class.

The encoder and the checker below work from the table itself, not from
Python's codec, so that the tests can hold one against the other.
"""

# Each row: the code points it covers and, per byte, the allowed range.
TABLE_3_7 = (
    ((0x0000, 0x007F), ((0x00, 0x7F),)),
    ((0x0080, 0x07FF), ((0xC2, 0xDF), (0x80, 0xBF))),
    ((0x0800, 0x0FFF), ((0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF))),
    ((0x1000, 0xCFFF), ((0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF))),
    ((0xD000, 0xD7FF), ((0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF))),
    ((0xE000, 0xFFFF), ((0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF))),
    ((0x10000, 0x3FFFF), ((0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF))),
    ((0x40000, 0xFFFFF), ((0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF))),
    ((0x100000, 0x10FFFF), ((0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF))),
)


def encode(cp):
    """The UTF-8 bytes of code point cp (a scalar value), packed by hand."""
    if cp < 0x80:
        return bytes([cp])
    if cp < 0x800:
        return bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F])
    if cp < 0x10000:
        return bytes([0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F])
    return bytes([0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F,
                  0x80 | cp & 0x3F])


def well_formed(data):
    """True when data is a sequence of rows of Table 3-7, nothing else."""
    i = 0
    while i < len(data):
        for _, ranges in TABLE_3_7:
            seq = data[i:i + len(ranges)]
            if len(seq) == len(ranges) and all(lo <= b <= hi for b, (lo, hi) in zip(seq, ranges)):
                i += len(ranges)
                break
        else:
            return False
    return True


def row_boundaries():
    """(code point, row number) for the first and last code point of every row."""
    for number, ((first, last), _) in enumerate(TABLE_3_7, start=1):
        yield first, number
        yield last, number


def _hex(seq):
    return " ".join(f"{b:02X}" for b in seq)


def ill_formed():
    """(slug, bytes, reason) for every class of sequence Table 3-7 rules out.

    Each is meant to sit inside a string, before its closing quote."""
    cases = []

    def add(slug, seq, why):
        cases.append((slug, bytes(seq), f"{why} (bytes {_hex(seq)}); Table 3-7 has no such row"))

    add("lone_continuation_80", [0x80], "a continuation byte with no lead byte")
    add("lone_continuation_bf", [0xBF], "a continuation byte with no lead byte")
    add("two_continuations", [0x80, 0x80], "continuation bytes with no lead byte")
    add("extra_continuation", [0xC3, 0xA9, 0x80], "a continuation byte after a complete U+00E9")
    add("overlong_2_nul", [0xC0, 0x80], "lead byte C0: U+0000 in two bytes (overlong)")
    add("overlong_2_slash", [0xC0, 0xAF], "lead byte C0: '/' in two bytes (overlong)")
    add("overlong_2_u007f", [0xC1, 0xBF], "lead byte C1: U+007F in two bytes (overlong)")
    add("overlong_3_nul", [0xE0, 0x80, 0x80], "E0 80..9F: U+0000 in three bytes (overlong)")
    add("overlong_3_slash", [0xE0, 0x80, 0xAF], "E0 80..9F: '/' in three bytes (overlong)")
    add("overlong_3_u07ff", [0xE0, 0x9F, 0xBF], "E0 80..9F: U+07FF in three bytes (overlong)")
    add("overlong_4_nul", [0xF0, 0x80, 0x80, 0x80], "F0 80..8F: U+0000 in four bytes (overlong)")
    add("overlong_4_slash", [0xF0, 0x80, 0x80, 0xAF], "F0 80..8F: '/' in four bytes (overlong)")
    add("overlong_4_uffff", [0xF0, 0x8F, 0xBF, 0xBF], "F0 80..8F: U+FFFF in four bytes (overlong)")
    add("overlong_5_slash", [0xF8, 0x80, 0x80, 0x80, 0xAF], "lead byte F8: a five-byte form")
    add("overlong_6_nul", [0xFC, 0x80, 0x80, 0x80, 0x80, 0x80], "lead byte FC: a six-byte form")
    for cp in (0xD800, 0xDB7F, 0xDB80, 0xDBFF, 0xDC00, 0xDFFF):
        add(f"surrogate_u{cp:04x}", [0xED, 0xA0 | (cp >> 6 & 0x1F), 0x80 | cp & 0x3F],
            f"ED A0..BF: the surrogate U+{cp:04X} encoded")
    add("surrogate_pair_cesu8", [0xED, 0xA0, 0xB4, 0xED, 0xB4, 0x9E],
        "ED A0..BF: U+1D11E as two encoded surrogates (CESU-8)")
    add("beyond_u10ffff_f4_90", [0xF4, 0x90, 0x80, 0x80], "F4 90..BF: U+110000")
    add("beyond_u10ffff_f4_bf", [0xF4, 0xBF, 0xBF, 0xBF], "F4 90..BF: U+13FFFF")
    add("lead_f5", [0xF5, 0x80, 0x80, 0x80], "lead byte F5: U+140000")
    add("lead_f7", [0xF7, 0xBF, 0xBF, 0xBF], "lead byte F7: U+1FFFFF")
    add("five_byte_form", [0xF8, 0x88, 0x80, 0x80, 0x80], "lead byte F8: U+200000 in five bytes")
    add("six_byte_form", [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],
        "lead byte FC: U+4000000 in six bytes")
    for lead in (0xFE, 0xFF):
        add(f"byte_{lead:02x}", [lead], f"the byte {lead:02X}, in no row")
    add("second_byte_ascii", [0xC2, 0x41], "C2 then 'A': a lead byte without its continuation")
    add("second_byte_c0", [0xC2, 0xC0], "C2 then C0: second byte above 80..BF")
    add("third_byte_ascii", [0xE1, 0x80, 0x41], "E1 80 then 'A': third byte below 80..BF")
    add("third_byte_c0", [0xE1, 0x80, 0xC0], "E1 80 then C0: third byte above 80..BF")
    add("fourth_byte_ascii", [0xF1, 0x80, 0x80, 0x41],
        "F1 80 80 then 'A': fourth byte below 80..BF")
    add("fourth_byte_c0", [0xF1, 0x80, 0x80, 0xC0], "F1 80 80 then C0: fourth byte above 80..BF")
    # Each multi-byte row cut short, right before the closing quote.
    for number, ((first, last), ranges) in enumerate(TABLE_3_7[1:], start=2):
        full = encode(last)
        for keep in range(1, len(ranges)):
            add(f"truncated_row{number}_{keep}of{len(ranges)}", full[:keep],
                f"U+{last:04X} (row {number}) cut after {keep} of {len(ranges)} bytes")
    add("latin1_e9", [0xE9], "U+00E9 in ISO-8859-1, not UTF-8: E9 leads a three-byte form")
    return cases
