#include "tests/map_fixtures.hpp"

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

// add_built with the fixture list bound, so the builders below read as a table.
struct Add {
  std::vector<Fixture>& out;
  void operator()(std::string name, std::string what, std::string bytes, Expect expect,
                  std::optional<Records> expected = std::nullopt) const {
    add_built(out, std::move(name), std::move(what), std::move(bytes), expect, std::move(expected));
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
      mp_feed("\x91",
              mp_row("\x01", mp_str("text"), mp_str("Deep") + repeat("\x91", kDeep) + "\xC0")),
      Expect::either, one_message("text"));
  add("any_msgpack_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      mp_feed("\x91", mp_row("\x01", mp_str("\xFF\xFE"))), Expect::any);
  add("n_msgpack_id_as_text", "ID as a string",
      mp_feed("\x91", mp_row(mp_str("1"), mp_str("text"))), Expect::reject);
  add("n_msgpack_text_as_int", "MessageText as an integer", mp_feed("\x91", mp_row("\x01", "\x05")),
      Expect::reject);
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
// depth documents, each the one member "a" of the next: bs_doc(bs_key('\x03',
// "a") + inner) applied depth times, written in one pass (each level is 8 bytes
// longer than the one it holds) rather than by copying the whole each time.
std::string bs_nested(int depth) {
  std::string out;
  for (int level = depth; level > 0; --level) out += le(5 + 8 * level, 4) + bs_key('\x03', "a");
  out += bs_doc("");
  out += std::string(depth, '\0');
  return out;
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
  add("n_bson_deep_documents_100000", "100,000 nested documents", bs_nested(kDeep), Expect::reject);
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
  // A nested document's last byte is its terminator; libbson's iterator
  // takes a child whose last byte is another type byte as ended there.
  std::string open_row = bs_feed(row);
  open_row[open_row.size() - 3] = '\x10';
  add("any_bson_row_not_ending_in_nul", "a row whose last byte (its NUL) is 0x10", open_row,
      Expect::any);
}

// ---------------------------------------------------------------- Thrift
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  return out + static_cast<char>(v);
}
uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// Compact protocol: a field head is (id delta << 4) | type; 5 i32, 8
// binary, 9 list, 12 struct; a list head (size << 4) | element type, or
// 0xF0 | type and a varint size.
std::string tc_feed(std::string_view list_head, std::string_view rows) {
  return "\x19" + std::string(list_head) + std::string(rows) + std::string(1, '\0');
}
std::string tc_row(std::string_view id, std::string_view text, std::string_view extra = {}) {
  return std::string(id) + std::string(text) + std::string(extra) + std::string(1, '\0');
}
std::string tc_text(std::string_view s) {
  return "\x18" + varint(s.size()) + std::string(s);
}

void thrift_compact(const Add& add) {
  const std::string id = "\x15" + varint(zigzag(1));
  const std::string row = tc_row(id, tc_text("text"));
  add("decode_thrift_one_row", "one valid row, built by hand", tc_feed("\x1C", row), Expect::decode,
      one_message("text"));
  add("n_thrift_list_claims_2e31", "list head claiming 2^31-1 rows, one present",
      tc_feed("\xFC" + varint(0x7FFFFFFF), row), Expect::reject);
  add("n_thrift_string_claims_2e31", "string length 2^31-1, 4 bytes present",
      tc_feed("\x1C", tc_row(id, "\x18" + varint(0x7FFFFFFF) + "text")), Expect::reject);
  add("n_thrift_negative_string_length", "string length -1 (varint FF FF FF FF 0F)",
      tc_feed("\x1C", tc_row(id, "\x18" + varint(0xFFFFFFFF) + "text")), Expect::reject);
  add("n_thrift_negative_list_size", "list size -1", tc_feed("\xFC" + varint(0xFFFFFFFF), row),
      Expect::reject);
  add("n_thrift_overlong_varint", "the ID as an 11-byte varint",
      tc_feed("\x1C", tc_row("\x15" + repeat("\x80", 10) + std::string(1, '\0'), tc_text("text"))),
      Expect::reject);
  add("n_thrift_deep_structs_100000", "100,000 nested structs in an unknown field",
      tc_feed("\x1C", tc_row(id, tc_text("text"),
                             repeat("\x1C", kDeep) + repeat(std::string(1, '\0'), kDeep))),
      Expect::reject);
  add("n_thrift_id_as_binary", "ID as a binary field (skipped, so ID is missing)",
      tc_feed("\x1C", tc_row("\x18" + varint(1) + "1", tc_text("text"))), Expect::reject);
  add("n_thrift_bad_type", "a field of type 13 (none)",
      tc_feed("\x1C", tc_row(id, tc_text("text"), "\x1D")), Expect::reject);
  add("n_thrift_byte_after_end", "a byte after the feed's stop",
      tc_feed("\x1C", row) + std::string(1, '\0'), Expect::reject);
  add("any_thrift_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      tc_feed("\x1C", tc_row(id, tc_text("\xFF\xFE"))), Expect::any);
}

// Binary protocol: a field is type, i16 id, value; 8 i32, 11 string,
// 12 struct, 15 list (element type, i32 size); 0 stops a struct.
std::string tb_field(char type, int id) {
  return std::string(1, type) + be(static_cast<uint64_t>(id), 2);
}
std::string tb_feed(uint64_t count, std::string_view rows) {
  return tb_field('\x0F', 1) + "\x0C" + be(count, 4) + std::string(rows) + std::string(1, '\0');
}
std::string tb_text(uint64_t length, std::string_view s) {
  return tb_field('\x0B', 2) + be(length, 4) + std::string(s);
}

void thrift_binary(const Add& add) {
  const std::string id = tb_field('\x08', 1) + be(1, 4);
  const std::string end(1, '\0');
  const std::string row = id + tb_text(4, "text") + end;
  add("decode_thrift_binary_one_row", "one valid row, built by hand", tb_feed(1, row),
      Expect::decode, one_message("text"));
  add("n_thrift_binary_list_claims_2e31", "list size 2^31-1, one row present",
      tb_feed(0x7FFFFFFF, row), Expect::reject);
  add("n_thrift_binary_negative_list_size", "list size -1", tb_feed(0xFFFFFFFF, row),
      Expect::reject);
  add("n_thrift_binary_string_claims_2e31", "string length 2^31-1, 4 bytes present",
      tb_feed(1, id + tb_text(0x7FFFFFFF, "text") + end), Expect::reject);
  add("n_thrift_binary_negative_string_length", "string length -1",
      tb_feed(1, id + tb_text(0xFFFFFFFF, "text") + end), Expect::reject);
  add("n_thrift_binary_deep_structs_100000", "100,000 nested structs in an unknown field",
      tb_feed(1, id + tb_text(4, "text") + repeat(tb_field('\x0C', 3), kDeep) + repeat(end, kDeep) +
                     end),
      Expect::reject);
  add("n_thrift_binary_id_as_string", "ID as a string field (skipped, so ID is missing)",
      tb_feed(1, tb_field('\x0B', 1) + be(1, 4) + "1" + tb_text(4, "text") + end), Expect::reject);
  add("n_thrift_binary_byte_after_end", "a byte after the feed's stop", tb_feed(1, row) + end,
      Expect::reject);
  add("any_thrift_binary_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      tb_feed(1, id + tb_text(2, "\xFF\xFE") + end), Expect::any);
}

// ---------------------------------------------------------------- Avro
// The message feed: blocks of rows (a zigzag count, then each row's int ID
// and string MessageText), a 0 count at the end.
std::string av_text(int64_t length, std::string_view s) {
  return varint(zigzag(length)) + std::string(s);
}

void avro(const Add& add) {
  const std::string id = varint(zigzag(1));
  const std::string row = id + av_text(4, "text");
  const std::string end(1, '\0');
  add("decode_avro_one_row", "one valid row, built by hand", varint(zigzag(1)) + row + end,
      Expect::decode, one_message("text"));
  add("decode_avro_block_with_size", "a block with a negative count and its byte size",
      varint(zigzag(-1)) + varint(zigzag(static_cast<int64_t>(row.size()))) + row + end,
      Expect::decode, one_message("text"));
  add("n_avro_string_claims_4gib", "string length 2^32, 4 bytes present",
      varint(zigzag(1)) + id + av_text(int64_t{1} << 32, "text") + end, Expect::reject);
  add("n_avro_negative_string_length", "string length -1",
      varint(zigzag(1)) + id + av_text(-1, "text") + end, Expect::reject);
  add("n_avro_block_claims_2e62", "a block count of 2^62, one row present",
      varint(zigzag(int64_t{1} << 62)) + row + end, Expect::reject);
  add("n_avro_overlong_varint", "the ID as an 11-byte varint",
      varint(zigzag(1)) + repeat("\x80", 10) + end + av_text(4, "text") + end, Expect::reject);
  add("n_avro_int_out_of_range", "the ID 2^31, beyond Int32",
      varint(zigzag(1)) + varint(zigzag(int64_t{1} << 31)) + av_text(4, "text") + end,
      Expect::reject);
  add("n_avro_byte_after_end", "a byte after the datum", varint(zigzag(1)) + row + end + end,
      Expect::reject);
  add("any_avro_invalid_utf8", "text with bytes FF FE (not UTF-8)",
      varint(zigzag(1)) + id + av_text(2, "\xFF\xFE") + end, Expect::any);
}

}  // namespace

void map_fixtures(std::string_view format, std::vector<Fixture>& out) {
  const Add add{out};
  if (format == "msgpack") msgpack(add);
  if (format == "cbor") cbor(add);
  if (format == "bson") bson(add);
  if (format == "thrift") thrift_compact(add);
  if (format == "thrift-binary") thrift_binary(add);
  if (format == "avro") avro(add);
}

}  // namespace wb::test
