"""Number cases from RFC 8259 section 6:

    number = [ minus ] int [ frac ] [ exp ]
    int = zero / ( digit1-9 *DIGIT )    frac = decimal-point 1*DIGIT
    exp = e [ minus / plus ] 1*DIGIT    e = %x65 / %x45

Accepted texts are every combination of the productions' options; rejected
ones break one production each; the implementation's choice is what section 6
leaves to it: range and precision beyond IEEE 754 binary64, integers outside
[-(2**53)+1, (2**53)-1].
"""

import decimal
import itertools
import re
import sys

from .case import cases_of

_MAX = decimal.Decimal(sys.float_info.max)
_MIN_NORMAL = decimal.Decimal(sys.float_info.min)
_SAFE = 2 ** 53 - 1


def significant_digits(text):
    """Digits of the mantissa without leading and trailing zeros."""
    mantissa = text.lstrip("-").split("e")[0].split("E")[0].replace(".", "")
    return len(mantissa.strip("0"))


def label(text):
    """(label, reason) of a number that the grammar accepts: y, or i where
    section 6 lets an implementation limit range or precision."""
    mantissa, _, exponent = text.lower().partition("e")
    mantissa, exponent = decimal.Decimal(mantissa), int(exponent or 0)
    # The power of ten of the leading digit; Decimal cannot hold an exponent
    # of 20 digits, and no such number is near binary64's range anyway.
    magnitude = mantissa.adjusted() + exponent if mantissa else 0
    value = abs(decimal.Decimal(text)) if mantissa and abs(magnitude) < 400 else None
    is_integer = all(c not in text for c in ".eE")
    if is_integer and abs(mantissa) > _SAFE:
        return "i", "an integer outside [-(2**53)+1, (2**53)-1], the interoperable range"
    if mantissa and (magnitude >= 400 or value is not None and value > _MAX):
        return "i", "beyond binary64's largest finite value: section 6 lets a parser limit range"
    if mantissa and (magnitude <= -400 or value is not None and value < _MIN_NORMAL):
        return "i", "below binary64's smallest normal value: section 6 lets a parser limit range"
    if significant_digits(text) > 17:
        return "i", "more significant digits than binary64 holds: section 6 allows a limit"
    return "y", "number = [ minus ] int [ frac ] [ exp ], within binary64's range and precision"


def _slug(text):
    """[-7.5E+2] -> minus_7_dot_5_cap_e_plus_2"""
    names = {"-": "_minus_", ".": "_dot_", "e": "_e_", "E": "_cap_e_", "+": "_plus_"}
    return re.sub("_+", "_", "".join(names.get(c, c) for c in text)).strip("_")


def _grammar_products():
    """Every combination of the productions' options, each inside an array."""
    signs = ("", "-")
    ints = ("0", "7", "42")
    fracs = ("", ".5")
    exps = ("", "e2", "E2", "e+2", "E+2", "e-2", "E-2")
    for sign, int_, frac, exp in itertools.product(signs, ints, fracs, exps):
        text = sign + int_ + frac + exp
        yield f"[{text}]", _slug(text)


# Texts the grammar accepts, at the edges of its productions and of binary64:
# (slug, text, what it shows); label() says whether it is y or i.
EDGES = (
    ("exp_leading_zeros", "1e007", "exp takes 1*DIGIT, leading zeros included"),
    ("exp_zero", "1E-0", "exp takes 1*DIGIT, zero included"),
    ("frac_zeros", "1.000", "frac takes 1*DIGIT, trailing zeros included"),
    ("frac_17_digits", "0.12345678901234567", "17 significant digits, binary64's precision"),
    ("int_17_digits_exp", "12345678901234567e0", "17 significant digits with an exp"),
    ("max_safe_integer", "9007199254740991", "(2**53)-1, the largest interoperable integer"),
    ("min_safe_integer", "-9007199254740991", "-(2**53)+1, the smallest interoperable integer"),
    ("binary64_max", "1.7976931348623157e308", "binary64's largest finite value"),
    ("binary64_max_negative", "-1.7976931348623157e308", "binary64's most negative finite value"),
    ("binary64_min_normal", "2.2250738585072014e-308", "binary64's smallest normal value"),
    ("tiny_fraction", "0." + "0" * 57 + "1", "1e-58 written out: many zeros, one digit"),
    ("big_via_exponent", "1e300", "a large exponent within binary64's range"),
    ("minus_zero_exp", "-0e-0", "minus, zero int and a zero exp"),
    ("integer_2_53_as_real", "9007199254740992.0", "2**53 with a frac: a real, not an integer"),
    ("integer_2_64_as_exp", "1.8446744073709552e19", "2**64 with an exp: a real, not an integer"),
    ("integer_2_53", "9007199254740992", "2**53"),
    ("integer_minus_2_53", "-9007199254740992", "-(2**53)"),
    ("integer_int64_max", "9223372036854775807", "(2**63)-1"),
    ("integer_int64_min", "-9223372036854775808", "-(2**63)"),
    ("integer_2_63", "9223372036854775808", "2**63"),
    ("integer_uint64_max", "18446744073709551615", "(2**64)-1"),
    ("integer_2_64", "18446744073709551616", "2**64"),
    ("integer_21_digits", "-100000000000000000000", "-(10**20)"),
    ("integer_400_digits", "1" + "0" * 399, "10**399"),
    ("overflow_1e309", "1e309", "1e309"),
    ("overflow_minus_1e309", "-1e309", "-1e309"),
    ("overflow_just_above_max", "1.7976931348623159e308", "rounds to infinity in binary64"),
    ("overflow_1e400", "1.5e400", "1.5e400"),
    ("overflow_exp_beyond_int64", "1e99999999999999999999", "an exponent beyond 64 bits"),
    ("subnormal_min", "5e-324", "binary64's smallest subnormal value"),
    ("subnormal_below_min_normal", "2.2250738585072e-308", "a subnormal value"),
    ("underflow_1e_400", "1e-400", "rounds to zero in binary64"),
    ("underflow_minus", "-1.5e-400", "rounds to minus zero in binary64"),
    ("underflow_exp_beyond_int64", "1e-99999999999999999999", "an exponent beyond 64 bits"),
    ("precision_18_digits", "0.123456789012345678", "18 significant digits"),
    ("precision_100_digits", "3." + "1" * 99, "100 significant digits"),
)

# Texts that break one production each: (slug, text, reason).
REJECTED = (
    ("leading_zero", "01", "int: a zero is the whole int"),
    ("leading_zero_minus", "-01", "int: a zero is the whole int"),
    ("leading_zeros", "007", "int: a zero is the whole int"),
    ("double_zero", "00", "int: a zero is the whole int"),
    ("double_zero_minus", "-00", "int: a zero is the whole int"),
    ("leading_zero_frac", "00.5", "int: a zero is the whole int"),
    ("leading_zero_exp", "01e1", "int: a zero is the whole int"),
    ("no_int_frac", ".5", "int is required before frac"),
    ("no_int_minus_frac", "-.5", "int is required before frac"),
    ("no_int_exp", ".5e1", "int is required before frac"),
    ("dot_only", ".", "int is required"),
    ("minus_only", "-", "int is required after minus"),
    ("minus_space", "- 1", "no whitespace inside a number"),
    ("minus_minus", "--1", "one minus at most"),
    ("plus", "+1", "no plus before int"),
    ("plus_zero", "+0", "no plus before int"),
    ("plus_frac", "+1.5", "no plus before int"),
    ("plus_minus", "+-1", "no plus before int"),
    ("minus_plus", "-+1", "int after minus"),
    ("minus_dot", "-.", "int after minus"),
    ("frac_no_digit", "1.", "frac = decimal-point 1*DIGIT"),
    ("frac_no_digit_minus", "-2.", "frac = decimal-point 1*DIGIT"),
    ("frac_no_digit_exp", "1.e5", "frac = decimal-point 1*DIGIT"),
    ("frac_no_digit_zero_exp", "0.E1", "frac = decimal-point 1*DIGIT"),
    ("two_dots", "1..5", "one frac at most"),
    ("two_fracs", "1.2.3", "one frac at most"),
    ("frac_letter", "1.a", "frac = decimal-point 1*DIGIT"),
    ("frac_space", "1. 5", "no whitespace inside a number"),
    ("exp_no_digit", "1e", "exp = e [ minus / plus ] 1*DIGIT"),
    ("exp_cap_no_digit", "1E", "exp = e [ minus / plus ] 1*DIGIT"),
    ("exp_plus_no_digit", "1e+", "exp = e [ minus / plus ] 1*DIGIT"),
    ("exp_minus_no_digit", "1e-", "exp = e [ minus / plus ] 1*DIGIT"),
    ("exp_cap_plus_no_digit", "0E+", "exp = e [ minus / plus ] 1*DIGIT"),
    ("frac_exp_no_digit", "1.5e", "exp = e [ minus / plus ] 1*DIGIT"),
    ("exp_two_signs", "1e+-1", "one sign in exp"),
    ("exp_minus_plus", "1e-+1", "one sign in exp"),
    ("exp_plus_plus", "1e++1", "one sign in exp"),
    ("exp_two_e", "1eE2", "one e in exp"),
    ("exp_ee", "1ee2", "one e in exp"),
    ("exp_twice", "1e2e3", "one exp at most"),
    ("exp_frac", "1e1.5", "exp digits only"),
    ("exp_dot", "1e.5", "exp digits only"),
    ("exp_space", "1e 1", "no whitespace inside a number"),
    ("space_before_exp", "1 e1", "no whitespace inside a number"),
    ("exp_alone", "e1", "int is required before exp"),
    ("exp_cap_alone", "E1", "int is required before exp"),
    ("nan", "NaN", "not a number production: NaN"),
    ("nan_minus", "-NaN", "not a number production: NaN"),
    ("nan_plus", "+NaN", "not a number production: NaN"),
    ("nan_lower", "nan", "not a number production: NaN"),
    ("infinity", "Infinity", "not a number production: Infinity"),
    ("infinity_minus", "-Infinity", "not a number production: Infinity"),
    ("infinity_plus", "+Infinity", "not a number production: Infinity"),
    ("infinity_lower", "infinity", "not a number production: Infinity"),
    ("inf", "Inf", "not a number production: Inf"),
    ("inf_minus", "-Inf", "not a number production: Inf"),
    ("inf_lower_minus", "-inf", "not a number production: Inf"),
    ("hex", "0x1F", "DIGIT only: no hexadecimal"),
    ("hex_minus", "-0x1", "DIGIT only: no hexadecimal"),
    ("hex_cap", "0X1", "DIGIT only: no hexadecimal"),
    ("octal_prefix", "0o7", "DIGIT only: no octal"),
    ("binary_prefix", "0b1", "DIGIT only: no binary"),
    ("underscore_separator", "1_000", "DIGIT only: no digit separators"),
    ("apostrophe_separator", "1'000", "DIGIT only: no digit separators"),
    ("space_separator", "1 000", "no whitespace inside a number"),
    ("fullwidth_digit", "\uff11", "DIGIT is %x30-39: U+FF11 FULLWIDTH DIGIT ONE is not"),
    ("arabic_indic_digit", "\u0661", "DIGIT is %x30-39: U+0661 ARABIC-INDIC DIGIT ONE is not"),
    ("superscript_digit", "\u00b2", "DIGIT is %x30-39: U+00B2 SUPERSCRIPT TWO is not"),
    ("unicode_minus_sign", "\u22121", "minus is %x2D: U+2212 MINUS SIGN is not"),
    ("fullwidth_plus", "\uff0b1", "no plus before int"),
    ("letter_after_int", "1x", "nothing of a number follows int"),
    ("letter_after_frac", "1.5x", "nothing of a number follows frac"),
    ("letter_after_exp", "1e1x", "nothing of a number follows exp"),
    ("letter_after_minus", "-x", "int after minus"),
    ("at_after_int", "2@", "nothing of a number follows int"),
    ("trailing_plus", "1+", "a plus only in exp"),
    ("trailing_minus", "1-", "a minus only before int or in exp"),
    ("subtraction", "1-2", "a minus only before int or in exp"),
    ("addition", "1+2", "a plus only in exp"),
    ("parenthesised", "(1)", "not a value"),
    ("dot_minus", ".-1", "int is required"),
    ("int_then_ill_formed_utf8", b"1\xff", "an FF byte after int: not UTF-8, not a number"),
    ("int_then_truncated_utf8", b"12\xe5", "a truncated UTF-8 form after int"),
    ("exp_then_ill_formed_utf8", b"1e\xff", "an FF byte in exp: not UTF-8, not a digit"),
    ("frac_then_ill_formed_utf8", b"1.\xe5", "a truncated UTF-8 form in frac"),
    ("minus_then_ill_formed_utf8", b"-\xff", "an FF byte after minus: not UTF-8, not int"),
)

# Outside an array, at the top level of the text.
TOP_LEVEL_REJECTED = (
    ("top_level_comma_decimal", "1,5", "a comma is no decimal point; two values at the top"),
    ("top_level_then_nul", b"123\x00", "a NUL after the number: not whitespace"),
    ("top_level_leading_zero", "01", "int: a zero is the whole int"),
    ("top_level_plus", "+1", "no plus before int"),
)
TOP_LEVEL_ACCEPTED = (
    ("top_level_int", "42"), ("top_level_minus_real", "-1.5e-3"),
    ("top_level_zero", "0"), ("top_level_in_whitespace", " \t4\r\n"),
)


def cases():
    """Every number case, y, n and i."""
    rows = []
    for text, slug in _grammar_products():
        rows.append((*label(text[1:-1]), slug, text))
    for slug, text, what in EDGES:
        lbl, why = label(text)
        rows.append((lbl, f"{what}: {why}", slug, f"[{text}]"))
    for slug, text in TOP_LEVEL_ACCEPTED:
        lbl, why = label(text.strip())
        rows.append((lbl, f"a number as the whole text: {why}", slug, text))
    rows = [(lbl, slug, data, reason) for lbl, reason, slug, data in rows]
    for slug, text, why in REJECTED:
        data = b"[" + text + b"]" if isinstance(text, bytes) else f"[{text}]"
        rows.append(("n", slug, data, why))
    for slug, text, why in TOP_LEVEL_REJECTED:
        rows.append(("n", slug, text, why))
    return cases_of("number", rows)
