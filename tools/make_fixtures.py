#!/usr/bin/python3
"""Writes fixtures/malformed/ and fixtures/attack/ and their manifest.

Run from anywhere: /usr/bin/python3 tools/make_fixtures.py. Deterministic: the
files are mutations of the committed goldens (fixtures/golden/*-3.*, i.e.
generate(dataset, 3)), so the output is committed and a re-run is a no-op.

Only small files live here. tests/hostile_test.cpp builds the big ones (the
100,000-deep nestings, the 50 MB string) and the ones that must name a path of
the test's own temp dir (external entities and DTDs pointing at a canary file)
at test time.

fixtures/hostile.tsv, one fixture a line: PATH SCOPE DATASET EXPECT WHAT
  SCOPE   syntax:json | syntax:xml -> every decoder of every format of that
          syntax (the damage is in the syntax, no shape can make it valid);
          format:F -> the decoders of format F (the damage is in F's shape).
  EXPECT  reject -> a clean DecodeError;
          decode -> the records of generate(DATASET, 3);
          either -> reject, or decode to exactly those records;
          any    -> reject, or any records (the content is unspecified, e.g.
                    duplicate members with different values, or an entity bomb
                    a library may leave unexpanded); still no crash, no hang,
                    bounded memory.
"""
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
GOLDEN = FIX / "golden"

rows = []  # (path, scope, dataset, expect, what)


def golden(fmt, dataset):
    ext = "json" if fmt == "json" else "xml"
    return (GOLDEN / f"{fmt}-{dataset}-3.{ext}").read_bytes()


def once(data, old, new):
    """data with the first occurrence of old replaced; old must occur."""
    assert old in data, (old, data[:80])
    return data.replace(old, new, 1)


def put(kind, folder, name, data, scope, dataset, expect, what):
    path = pathlib.Path(kind) / folder / name
    (FIX / path).parent.mkdir(parents=True, exist_ok=True)
    (FIX / path).write_bytes(data)
    rows.append((str(path), scope, dataset, expect, what))


# Bytes that are not UTF-8, each put inside a string/text value.
BAD_UTF8 = {
    "lone_continuation": b"\x80",
    "overlong_slash": b"\xc0\xaf",  # '/' in two bytes
    "overlong_nul": b"\xc0\x80",  # NUL in two bytes (modified UTF-8)
    "overlong_3byte": b"\xe0\x80\xaf",
    "surrogate": b"\xed\xa0\x80",  # U+D800 encoded
    "truncated_sequence": b"\xe2\x82",
    "above_u10ffff": b"\xf4\x90\x80\x80",
    "byte_ff": b"\xff",
}


def json_fixtures():
    msg = golden("json", "message")
    airport = golden("json", "airport")
    science = golden("json", "science")
    syn = "syntax:json"
    m = lambda name, data, what: put("malformed", "json", name, data, syn, "message", "reject", what)
    text = b'"My Message No. 2"'
    m("n_empty.json", b"", "empty document")
    m("n_truncated_open_brace.json", b"{", "a lone {")
    m("n_truncated_in_string.json", msg[: msg.index(b"No. 2") + 2], "ends inside a string")
    m("n_truncated_after_comma.json", msg[: msg.index(b"},{") + 2], "ends after a comma")
    m("n_truncated_last_byte.json", msg[:-1], "the final } missing")
    m("n_mismatched_brackets.json", msg[:-2] + b"}]", "] and } swapped at the end")
    m("n_unclosed_string.json", once(msg, text, b'"My Message No. 2'), "a string without its quote")
    m("n_trailing_garbage.json", msg + b"x", "a byte after the document")
    m("n_second_document.json", msg + msg, "two documents")
    m("n_bad_escape.json", once(msg, text, b'"My \\x Message"'), "\\x escape")
    m("n_raw_control_char.json", once(msg, text, b'"My\x01Message"'), "raw U+0001 in a string")
    m("n_nul_in_string.json", once(msg, text, b'"My\x00Message"'), "raw NUL in a string")
    m("n_nul_between_tokens.json", once(msg, b"},{", b"},\x00{"), "raw NUL between tokens")
    m("n_nul_after_document.json", msg + b"\x00", "NUL after the document")
    m("n_single_quotes.json", once(msg, text, b"'My Message No. 2'"), "single-quoted string")
    m("n_comment.json", once(msg, b"},{", b"},/* c */{"), "a comment")
    for what, bad in BAD_UTF8.items():
        m(f"n_utf8_{what}.json", once(msg, text, b'"My ' + bad + b' Message"'), f"invalid UTF-8: {what}")

    f = lambda name, data, dataset, expect, what: put("malformed", "json", name, data, "format:json", dataset, expect, what)
    rid = b'"ID":2,'
    f("n_message_id_1e400.json", once(msg, rid, b'"ID":1e400,'), "message", "reject", "ID 1e400 (no double)")
    f("n_message_id_300_digits.json", once(msg, rid, b'"ID":' + b"9" * 300 + b","), "message", "reject", "ID with 300 digits")
    f("n_message_id_int32_overflow.json", once(msg, rid, b'"ID":2147483648,'), "message", "reject", "ID 2^31")
    f("n_message_id_negative_overflow.json", once(msg, rid, b'"ID":-2147483649,'), "message", "reject", "ID -2^31-1")
    f("n_message_id_fraction.json", once(msg, rid, b'"ID":2.5,'), "message", "reject", "ID 2.5")
    f("n_message_id_string.json", once(msg, rid, b'"ID":"2",'), "message", "reject", "ID as a string")
    f("n_message_id_true.json", once(msg, rid, b'"ID":true,'), "message", "reject", "ID true")
    f("n_message_id_object.json", once(msg, rid, b'"ID":{},'), "message", "reject", "ID {}")
    f("n_message_text_number.json", once(msg, text, b"5"), "message", "reject", "MessageText 5")
    f("n_message_text_array.json", once(msg, text, b'["x"]'), "message", "reject", "MessageText an array")
    f("n_message_value_object.json", once(msg, b'"value":[', b'"value":{"x":[') + b"}", "message", "reject", "value an object")
    f("n_message_row_array.json", once(msg, b"},{", b"},[1],{"), "message", "reject", "a row that is an array")
    lat = b'"Latitude":-13.759845'
    f("n_airport_latitude_1e400.json", once(airport, lat, b'"Latitude":1e400'), "airport", "reject", "Latitude 1e400 (overflows double)")
    f("n_airport_latitude_minus_1e400.json", once(airport, lat, b'"Latitude":-1e400'), "airport", "reject", "Latitude -1e400")
    f("n_airport_latitude_string.json", once(airport, lat, b'"Latitude":"x"'), "airport", "reject", "Latitude a string")
    f("n_airport_contacts_object.json", once(airport, b'"Contacts":[', b'"Contacts":{"a":['), "airport", "reject", "Contacts an object")
    f("n_science_timestamp_month_13.json", once(science, b'"2026-01-01T00:00:02', b'"2026-13-01T00:00:02'), "science", "reject", "Timestamp month 13")
    f("any_airport_latitude_300_digits.json", once(airport, lat, b'"Latitude":' + b"1" * 300), "airport", "any", "Latitude a 300-digit integer (1.1e299, a valid double)")
    f("any_airport_latitude_1e-400.json", once(airport, lat, b'"Latitude":1e-400'), "airport", "any", "Latitude 1e-400 (underflows to 0)")
    # RapidJSON 1.1.0's full precision reads 0e40 as -2.4e229 and
    # "0." + 400 zeros out of bounds (a crash). Unknown members are skipped,
    # but every DOM decoder still converts their numbers.
    f("decode_message_zero_exponents_unknown.json", once(msg, rid, rid + b'"Extra":[0e40,-0E+99,0.0e-330,0e308],'), "message", "decode", "an unknown member of zeros with large exponents")
    f("decode_message_zero_400_digits_unknown.json", once(msg, rid, rid + b'"Extra":0.' + b"0" * 400 + b","), "message", "decode", "an unknown member 0.000... with 400 zeros")
    f("either_message_duplicate_same.json", once(msg, rid, rid + rid), "message", "either", "ID twice with the same value")
    f("any_message_duplicate_conflict.json", once(msg, rid, rid + b'"ID":7,'), "message", "any", "ID twice with different values")
    f("either_message_duplicate_metadata.json", once(msg, b'"value"', b'"odata.metadata":"x","value"'), "message", "either", "odata.metadata twice")
    f("decode_message_escapes.json", once(msg, text, b'"\\u004dy\\u0020Message No\\u002e 2"'), "message", "decode", "\\u escapes for plain ASCII")
    f("decode_message_whitespace.json", msg.replace(b",", b" ,\r\n\t ").replace(b":", b" : "), "message", "decode", "whitespace around every , and :")


def xml_fixtures():
    for fmt in ("atom", "soap"):
        msg = golden(fmt, "message")
        airport = golden(fmt, "airport")
        p = "d:" if fmt == "atom" else "a:"
        text = b"My Message No. 2"
        id_open = f"<{p}ID".encode()
        id2 = (b'<d:ID m:type="Edm.Int32">2</d:ID>' if fmt == "atom" else b"<a:ID>2</a:ID>")
        id_with = lambda v: id2.replace(b">2<", b">" + v + b"<")
        lat = f">-13.759845</{p}Latitude>".encode()
        root = b"<feed " if fmt == "atom" else b"<s:Envelope "
        root_name = b"feed" if fmt == "atom" else b"s:Envelope"
        decl_end = msg.index(b"?>") + 2 if msg.startswith(b"<?xml") else 0
        doctype = lambda subset: msg[:decl_end] + b"<!DOCTYPE " + root_name + b" " + subset + b">" + msg[decl_end:]

        if fmt == "atom":  # syntax damage: one copy on the atom payload serves every XML format
            m = lambda name, data, what: put("malformed", "xml", name, data, "syntax:xml", "message", "reject", what)
            m("n_empty.xml", b"", "empty document")
            m("n_only_declaration.xml", msg[:decl_end], "only the XML declaration")
            m("n_truncated_in_tag.xml", msg[: msg.index(b"<entry>") + 4], "ends inside a start tag")
            m("n_truncated_in_text.xml", msg[: msg.index(text) + 5], "ends inside text")
            m("n_truncated_last_byte.xml", msg[:-1], "the final > missing")
            m("n_truncated_before_root_end.xml", msg[: msg.rindex(b"</")], "the root's end tag missing")
            m("n_mismatched_tags.xml", once(msg, b"</d:MessageText>", b"</d:MessageTxt>"), "end tag of another name")
            m("n_mismatched_nesting.xml", once(msg, b"</m:properties></content>", b"</content></m:properties>"), "overlapping elements")
            m("n_undeclared_prefix.xml", once(msg, b"<title />", b"<q:title />"), "an undeclared prefix")
            m("n_duplicate_attribute.xml", once(msg, b'<title type="text">', b'<title type="text" type="html">'), "an attribute twice")
            m("n_second_root.xml", msg + b"<feed/>", "a second root element")
            m("n_text_after_root.xml", msg + b"x", "text after the root")
            m("n_lt_in_attribute.xml", once(msg, b'title="Messages"', b'title="a<b"'), "< in an attribute value")
            m("n_raw_ampersand.xml", once(msg, text, b"My & Message"), "a bare & in text")
            m("n_undefined_entity.xml", once(msg, text, b"My &undefined; Message"), "an undeclared entity reference")
            m("n_char_ref_nul.xml", once(msg, text, b"My &#0; Message"), "&#0; (not an XML character)")
            m("n_char_ref_surrogate.xml", once(msg, text, b"My &#xD800; Message"), "&#xD800; (a surrogate)")
            m("n_char_ref_too_big.xml", once(msg, text, b"My &#x110000; Message"), "&#x110000;")
            m("n_raw_control_char.xml", once(msg, text, b"My \x01 Message"), "raw U+0001 (not an XML 1.0 character)")
            m("n_nul_in_text.xml", once(msg, text, b"My \x00 Message"), "raw NUL in text")
            m("n_nul_in_tag.xml", once(msg, b"<entry>", b"<en\x00try>"), "raw NUL in a tag name")
            m("n_nul_after_root.xml", msg + b"\x00", "NUL after the root")
            m("n_unclosed_comment.xml", once(msg, b"<entry>", b"<!-- <entry>"), "a comment never closed")
            m("n_unclosed_cdata.xml", once(msg, text, b"<![CDATA[My Message"), "a CDATA section never closed")
            m("n_doctype_after_root.xml", msg + b"<!DOCTYPE feed>", "a DOCTYPE after the root")
            # A fuzz_soap crash input, byte for byte: Xerces' DOM builder throws a DOMException
            # (not an XMLException) from XMLDecl() on this version, which would end the process.
            m("n_fuzz_xml_version_1_tilde.xml", b'<?xml version="1.~" encoding="utf-8"?>',
              "fuzz_soap crash: version 1.~ and no root")
            put("malformed", "xml", "either_xml_version_1_tilde.xml",
                once(msg, b'version="1.0"', b'version="1.~"'), "syntax:xml", "message", "either",
                "a whole feed under an XML declaration of version 1.~")
            for what, bad in BAD_UTF8.items():
                m(f"n_utf8_{what}.xml", once(msg, text, b"My " + bad + b" Message"), f"invalid UTF-8: {what}")
                m(f"n_utf8_{what}_in_name.xml", once(msg, b"<entry>", b"<en" + bad + b"try>"), f"invalid UTF-8 in a tag name: {what}")

        f = lambda name, data, dataset, expect, what, kind="malformed": put(kind, fmt, name, data, f"format:{fmt}", dataset, expect, what)
        f("n_message_id_1e400.xml", once(msg, id2, id_with(b"1e400")), "message", "reject", "ID 1e400")
        f("n_message_id_300_digits.xml", once(msg, id2, id_with(b"9" * 300)), "message", "reject", "ID with 300 digits")
        f("n_message_id_int32_overflow.xml", once(msg, id2, id_with(b"2147483648")), "message", "reject", "ID 2^31")
        f("n_message_id_fraction.xml", once(msg, id2, id_with(b"2.5")), "message", "reject", "ID 2.5")
        f("n_message_id_text.xml", once(msg, id2, id_with(b"two")), "message", "reject", "ID not a number")
        f("n_message_id_empty.xml", once(msg, id2, id_with(b"")), "message", "reject", "ID empty")
        f("n_message_id_child_element.xml", once(msg, id2, id_with(f"<{p}x>2</{p}x>".encode())), "message", "reject", "an element inside ID")
        f("n_airport_latitude_1e400.xml", once(airport, lat, lat.replace(b"-13.759845", b"1e400")), "airport", "reject", "Latitude 1e400")
        f("n_airport_latitude_text.xml", once(airport, lat, lat.replace(b"-13.759845", b"north")), "airport", "reject", "Latitude not a number")
        f("any_airport_latitude_300_digits.xml", once(airport, lat, lat.replace(b"-13.759845", b"1" * 300)), "airport", "any", "Latitude a 300-digit integer (a valid double)")
        f("any_message_duplicate_id.xml", once(msg, id2, id2 + id_with(b"7")), "message", "any", "ID element twice, different values")
        f("decode_message_char_refs.xml", once(msg, text, b"&#77;y&#x20;Message No&#46; 2"), "message", "decode", "character references for plain ASCII")
        f("decode_message_cdata.xml", once(msg, text, b"<![CDATA[My Message]]> No. 2"), "message", "decode", "a CDATA section in text")
        f("decode_message_comment_pi.xml", once(msg, text, b"My <!-- c --><?pi x?>Message No. 2"), "message", "decode", "a comment and a PI inside text")
        f("either_message_internal_subset.xml", doctype(b"[<!ELEMENT x ANY>]"), "message", "either", "a DOCTYPE with an internal subset and no entities (the Xerces adapters refuse every DTD)")
        f("either_message_internal_entity.xml", once(doctype(b'[<!ENTITY m "My Message No. 2">]'), text, b"&m;"), "message", "either", "an internal entity for the text")

        # Attacks: the entity sits where MessageText is, so an expansion would show.
        a = lambda name, data, expect, what: f(name, data, "message", expect, what, kind="attack")
        lol = b'[<!ENTITY lol "lol">' + b"".join(
            b"<!ENTITY lol%d \"%s\">" % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10)) + b"]"
        a("any_billion_laughs.xml", once(doctype(lol), text, b"&lol9;"), "any", "billion laughs: 10^9 x 'lol'")
        a("any_billion_laughs_in_attribute.xml", once(doctype(lol), b'title="Messages"' if fmt == "atom" else b'xmlns:i=', b'title="&lol9;"' + (b"" if fmt == "atom" else b" xmlns:i=")), "any", "billion laughs in an attribute value")
        big = b"x" * 20_000
        quad = b'[<!ENTITY big "' + big + b'">]'
        a("any_quadratic_blowup.xml", once(doctype(quad), text, b"&big;" * 20_000), "any", "quadratic blowup: a 20 KB entity referenced 20,000 times (400 MB)")
        ext = lambda url: b'[<!ENTITY ext SYSTEM "' + url + b'">]'
        a("either_external_dtd_http.xml", doctype(b'SYSTEM "http://wirebench.invalid/evil.dtd"'), "either", "DOCTYPE SYSTEM http:// (must not be fetched)")
        a("either_external_dtd_public_http.xml", doctype(b'PUBLIC "-//W//X" "http://127.0.0.1:9/evil.dtd"'), "either", "DOCTYPE PUBLIC with an http:// system id")
        a("any_external_entity_http.xml", once(doctype(ext(b"http://wirebench.invalid/x")), text, b"&ext;"), "any", "external entity over http://")
        a("any_external_entity_etc_passwd.xml", once(doctype(ext(b"file:///etc/passwd")), text, b"&ext;"), "any", "external entity file:///etc/passwd")
        a("any_parameter_entity_http.xml", doctype(b'[<!ENTITY % p SYSTEM "http://wirebench.invalid/p.dtd"> %p;]'), "any", "external parameter entity over http://")
        a("any_recursive_entity.xml", once(doctype(b'[<!ENTITY a "&b;"><!ENTITY b "&a;">]'), text, b"&a;"), "any", "entities that refer to each other")


def main():
    for kind in ("malformed", "attack"):  # a fixture dropped here must not linger
        shutil.rmtree(FIX / kind, ignore_errors=True)
    json_fixtures()
    xml_fixtures()
    rows.sort()
    lines = ["# path\tscope\tdataset\texpect\twhat  (written by tools/make_fixtures.py)"]
    lines += ["\t".join(r) for r in rows]
    (FIX / "hostile.tsv").write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} fixtures")


if __name__ == "__main__":
    main()
