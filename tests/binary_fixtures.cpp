#include "tests/binary_fixtures.hpp"

#include <cstdint>
#include <string>

namespace wb::test {
namespace {

constexpr int kDeep = 100'000;

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

Records one_message(std::string text) {
  return Records(std::vector<Message>{Message{1, std::move(text)}});
}

struct Add {
  std::vector<Fixture>& out;
  void operator()(std::string name, std::string what, std::string bytes, Expect expect,
                  std::optional<Records> expected = std::nullopt) const {
    Fixture f;
    f.name = "built/" + std::move(name);
    f.what = std::move(what);
    f.bytes = std::move(bytes);
    f.expect = expect;
    f.expected = std::move(expected);
    out.push_back(std::move(f));
  }
};

std::string be(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>(v >> (8 * i) & 0xFF);
  return out;
}
std::string le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
  return out;
}

// ---------------------------------------------------------------- msgpack
std::string mp_str(std::string_view s) {
  return (s.size() < 32 ? std::string(1, static_cast<char>(0xA0 | s.size()))
                        : "\xD9" + be(s.size(), 1)) +
         std::string(s);
}
// {"value": [rows]} with the array head given.
std::string mp_feed(std::string_view array_head, std::string_view rows) {
  return "\x81" + mp_str("value") + std::string(array_head) + std::string(rows);
}
std::string mp_row(std::string_view id, std::string_view text, std::string_view extra = {}) {
  const char head = static_cast<char>(extra.empty() ? 0x82 : 0x83);
  return std::string(1, head) + mp_str("ID") + std::string(id) + mp_str("MessageText") +
         std::string(text) + std::string(extra);
}

void msgpack(const Add& add) {
  const std::string row = mp_row("\x01", mp_str("text"));
  add("decode_msgpack_one_row", "one valid row, built by hand", mp_feed("\x91", row),
      Expect::decode, one_message("text"));
  add("n_msgpack_array32_claims_2e32", "array32 head claiming 2^32-1 rows, one present",
      mp_feed("\xDD\xFF\xFF\xFF\xFF", row), Expect::reject);
  add("n_msgpack_map32_claims_2e32", "map32 head claiming 2^32-1 members",
      "\xDF\xFF\xFF\xFF\xFF" + mp_str("value") + "\x90", Expect::reject);
  add("n_msgpack_str32_claims_4gib", "str32 head claiming 4 GiB, 4 bytes present",
      mp_feed("\x91", mp_row("\x01", "\xDB\xFF\xFF\xFF\xFFtext")), Expect::reject);
  add("n_msgpack_deep_arrays_100000", "100,000 nested arrays", repeat("\x91", kDeep) + "\xC0",
      Expect::reject);
  add("n_msgpack_deep_maps_100000", "100,000 nested maps",
      repeat("\x81" + mp_str("a"), kDeep) + "\xC0", Expect::reject);
  add("either_msgpack_deep_unknown_member", "100,000 nested arrays in an unknown member",
      mp_feed("\x91", mp_row("\x01", mp_str("text"), mp_str("Deep") + repeat("\x91", kDeep) + "\xC0")),
      Expect::either, one_message("text"));
  add("any_msgpack_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      mp_feed("\x91", mp_row("\x01", mp_str("\xFF\xFE"))), Expect::any);
  add("n_msgpack_id_as_text", "ID as a string", mp_feed("\x91", mp_row(mp_str("1"), mp_str("text"))),
      Expect::reject);
  add("n_msgpack_text_as_int", "MessageText as an integer",
      mp_feed("\x91", mp_row("\x01", "\x05")), Expect::reject);
  add("n_msgpack_text_as_bin", "MessageText as bin8",
      mp_feed("\x91", mp_row("\x01", std::string("\xC4\x04text", 6))), Expect::reject);
  add("n_msgpack_value_a_map", "value a map, not an array", mp_feed("\x80", ""), Expect::reject);
  add("n_msgpack_reserved_c1", "the never-used type byte C1", "\xC1", Expect::reject);
  add("n_msgpack_byte_after_end", "a nil after the feed", mp_feed("\x91", row) + "\xC0",
      Expect::reject);
}

// ---------------------------------------------------------------- CBOR
std::string cb_head(int major, uint64_t v) {
  const char m = static_cast<char>(major << 5);
  if (v < 24) return std::string(1, static_cast<char>(m | v));
  if (v <= 0xFF) return std::string(1, static_cast<char>(m | 24)) + be(v, 1);
  if (v <= 0xFFFF) return std::string(1, static_cast<char>(m | 25)) + be(v, 2);
  if (v <= 0xFFFFFFFF) return std::string(1, static_cast<char>(m | 26)) + be(v, 4);
  return std::string(1, static_cast<char>(m | 27)) + be(v, 8);
}
std::string cb_text(std::string_view s) {
  return cb_head(3, s.size()) + std::string(s);
}
std::string cb_feed(std::string_view array_head, std::string_view rows) {
  return "\xA1" + cb_text("value") + std::string(array_head) + std::string(rows);
}
std::string cb_row(std::string_view id, std::string_view text) {
  return "\xA2" + cb_text("ID") + std::string(id) + cb_text("MessageText") + std::string(text);
}

void cbor(const Add& add) {
  const std::string row = cb_row("\x01", cb_text("text"));
  add("decode_cbor_one_row", "one valid row, built by hand", cb_feed("\x81", row), Expect::decode,
      one_message("text"));
  add("decode_cbor_indefinite", "the feed with indefinite map, array and chunked text",
      "\xBF" + cb_text("value") + "\x9F\xBF" + cb_text("ID") + "\x01" + cb_text("MessageText") +
          "\x7F" + cb_text("te") + cb_text("xt") + "\xFF\xFF\xFF\xFF",
      Expect::decode, one_message("text"));
  add("n_cbor_array_claims_2e32", "array head claiming 2^32 rows, one present",
      cb_feed(cb_head(4, 1ull << 32), row), Expect::reject);
  add("n_cbor_map_claims_2e32", "map head claiming 2^32 members",
      cb_head(5, 1ull << 32) + cb_text("value") + "\x80", Expect::reject);
  add("n_cbor_text_claims_4gib", "text head claiming 2^32 bytes, 4 present",
      cb_feed("\x81", cb_row("\x01", cb_head(3, 1ull << 32) + "text")), Expect::reject);
  add("n_cbor_deep_arrays_100000", "100,000 nested arrays", repeat("\x81", kDeep) + "\xF6",
      Expect::reject);
  add("n_cbor_deep_indefinite_100000", "100,000 nested indefinite arrays",
      repeat("\x9F", kDeep) + repeat("\xFF", kDeep), Expect::reject);
  add("n_cbor_reserved_info_28", "additional information 28 (reserved)", "\x1C", Expect::reject);
  add("any_cbor_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      cb_feed("\x81", cb_row("\x01", cb_text("\xFF\xFE"))), Expect::any);
  add("n_cbor_id_as_text", "ID as text", cb_feed("\x81", cb_row(cb_text("1"), cb_text("text"))),
      Expect::reject);
  add("n_cbor_text_as_int", "MessageText as an integer", cb_feed("\x81", cb_row("\x01", "\x05")),
      Expect::reject);
  add("n_cbor_text_as_bytes", "MessageText as a byte string",
      cb_feed("\x81", cb_row("\x01", cb_head(2, 4) + "text")), Expect::reject);
  add("n_cbor_byte_after_end", "a null after the feed", cb_feed("\x81", row) + "\xF6",
      Expect::reject);
}

// ---------------------------------------------------------------- BSON
std::string bs_doc(std::string_view elements) {
  return le(4 + elements.size() + 1, 4) + std::string(elements) + std::string(1, '\0');
}
std::string bs_key(char type, std::string_view key) {
  return std::string(1, type) + std::string(key) + std::string(1, '\0');
}
std::string bs_string(std::string_view key, std::string_view s) {
  return bs_key('\x02', key) + le(s.size() + 1, 4) + std::string(s) + std::string(1, '\0');
}
std::string bs_int32(std::string_view key, int32_t v) {
  return bs_key('\x10', key) + le(static_cast<uint32_t>(v), 4);
}
std::string bs_feed(std::string_view row_elements) {
  return bs_doc(bs_key('\x04', "value") + bs_doc(bs_key('\x03', "0") + bs_doc(row_elements)));
}

void bson(const Add& add) {
  const std::string row = bs_int32("ID", 1) + bs_string("MessageText", "text");
  add("decode_bson_one_row", "one valid row, built by hand", bs_feed(row), Expect::decode,
      one_message("text"));
  std::string huge = bs_feed(row);
  huge.replace(0, 4, le(0x7FFFFFFF, 4));
  add("n_bson_length_claims_2gib", "document length prefix 2^31-1", huge, Expect::reject);
  const std::string claim = bs_key('\x02', "MessageText") + le(0x7FFFFFFF, 4) + "text";
  add("n_bson_string_claims_2gib", "string length 2^31-1, 4 bytes present",
      bs_feed(bs_int32("ID", 1) + claim + std::string(1, '\0')), Expect::reject);
  add("n_bson_string_negative_length", "string length -1",
      bs_feed(bs_int32("ID", 1) + bs_key('\x02', "MessageText") + le(0xFFFFFFFF, 4) + "text" +
              std::string(1, '\0')),
      Expect::reject);
  add("n_bson_string_without_nul", "a string whose last byte is not NUL",
      bs_feed(bs_int32("ID", 1) + bs_key('\x02', "MessageText") + le(5, 4) + "textX"),
      Expect::reject);
  std::string deep = bs_doc("");
  for (int i = 0; i < kDeep; ++i) deep = bs_doc(bs_key('\x03', "a") + deep);
  add("n_bson_deep_documents_100000", "100,000 nested documents", deep, Expect::reject);
  add("any_bson_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      bs_feed(bs_int32("ID", 1) + bs_string("MessageText", "\xFF\xFE")), Expect::any);
  add("n_bson_id_as_text", "ID as a string",
      bs_feed(bs_string("ID", "1") + bs_string("MessageText", "text")), Expect::reject);
  add("n_bson_text_as_int", "MessageText as an int32",
      bs_feed(bs_int32("ID", 1) + bs_int32("MessageText", 5)), Expect::reject);
  std::string cut = bs_feed(row);
  cut.pop_back();
  add("n_bson_missing_final_nul", "the last byte (the root's NUL) cut off", cut, Expect::reject);
  add("n_bson_byte_after_end", "a byte after the document", bs_feed(row) + std::string(1, '\0'),
      Expect::reject);
}

}  // namespace

void add_binary_fixtures(std::string_view format, std::vector<Fixture>& out) {
  const Add add{out};
  if (format == "msgpack") msgpack(add);
  if (format == "cbor") cbor(add);
  if (format == "bson") bson(add);
}

}  // namespace wb::test
