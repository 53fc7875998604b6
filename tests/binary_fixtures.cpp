#include "tests/binary_fixtures.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "tests/map_fixtures.hpp"

namespace wb::test {
namespace {

// ---------------------------------------------------------------- bytes
std::string bytes(std::initializer_list<int> list) {
  std::string out;
  for (int b : list) out += static_cast<char>(b);
  return out;
}
void put16(std::string& s, uint16_t v) {
  for (int i = 0; i < 2; ++i) s += static_cast<char>(v >> (8 * i));
}
void put32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>(v >> (8 * i));
}
void put64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s += static_cast<char>(v >> (8 * i));
}
std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}
Records messages(std::size_t n, int32_t id, std::string text) {
  return Records(std::vector<Message>(n, Message{id, std::move(text)}));
}

// ---------------------------------------------------------------- protobuf
// A MessageFeed is field 1 (0x0A) rows; a Message is ID (0x08, varint) and
// MessageText (0x12, length-delimited); a ScienceFeed is field 3 (0x1A) rows,
// a ScienceRow's Timestamp field 3 (0x1A), a Timestamp's nanos field 2 (0x10).
void protobuf_fixtures(std::vector<Fixture>& out) {
  const std::string ff9 = repeat("\xFF", 9);
  add_built(out, "decode_negative_id_10_byte_varint", "ID -1: a 10-byte sign-extended varint",
            "\x0A\x0B\x08" + ff9 + "\x01", Expect::decode, messages(1, -1, ""));
  add_built(out, "n_string_length_2pow32", "MessageText's length claims 2^32-1 bytes",
            bytes({0x0A, 0x0B, 0x08, 0x01, 0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a', 'b', 'c'}),
            Expect::reject);
  add_built(out, "n_row_length_2pow32", "a row's length claims 2^32-1 bytes",
            bytes({0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x08, 0x01}), Expect::reject);
  add_built(out, "n_row_length_negative", "a row's length is a 10-byte varint of -1",
            "\x0A" + ff9 + "\x01\x08\x01", Expect::reject);
  add_built(out, "n_varint_overlong_11_bytes", "an ID varint of 11 bytes",
            "\x0A\x0C\x08" + repeat("\xFF", 10) + "\x01", Expect::reject);
  add_built(out, "n_varint_unterminated", "an ID varint cut after its continuation bit",
            bytes({0x0A, 0x02, 0x08, 0xFF}), Expect::reject);
  add_built(out, "n_string_past_the_end", "MessageText's length runs past the row",
            bytes({0x0A, 0x05, 0x12, 0x10, 'a', 'b', 'c'}), Expect::reject);
  // A known field with another wire type is an unknown field to the spec.
  add_built(out, "either_wrong_wire_type", "MessageText sent as a varint",
            bytes({0x0A, 0x04, 0x08, 0x01, 0x10, 0x05}), Expect::either, messages(1, 1, ""));
  add_built(out, "n_wire_type_7", "a tag with wire type 7", bytes({0x0A, 0x02, 0x0F, 0x00}),
            Expect::reject);
  add_built(out, "n_field_number_zero", "a tag of field 0", bytes({0x0A, 0x02, 0x02, 0x00}),
            Expect::reject);
  add_built(out, "n_unmatched_end_group", "an end-group tag with no start",
            bytes({0x0A, 0x01, 0x0C}), Expect::reject);
  add_built(out, "n_deep_groups_100000", "100,000 nested unknown groups (field 5)",
            repeat("\x2B", 100'000) + repeat("\x2C", 100'000), Expect::reject);
  add_built(out, "any_invalid_utf8", "MessageText with byte 0xFF",
            bytes({0x0A, 0x05, 0x12, 0x03, 'a', 0xFF, 'b'}), Expect::any);
  add_built(out, "n_timestamp_nanos_not_ticks", "a Timestamp of 50 ns (not whole 100-ns ticks)",
            bytes({0x1A, 0x04, 0x1A, 0x02, 0x10, 0x32}), Expect::reject, std::nullopt,
            DatasetKind::science);
  add_built(out, "n_timestamp_nanos_negative", "a Timestamp's nanos of -1",
            "\x1A\x0D\x1A\x0B\x10" + ff9 + "\x01", Expect::reject, std::nullopt,
            DatasetKind::science);
}

// ---------------------------------------------------------------- FlatBuffers
// A MessageFeed as flatc's builder lays it out: root offset, identifier, the
// feed's vtable and table, the rows vector, then one row's vtable, table and
// text, which every element of the vector points at.
struct FbFeed {
  uint32_t elements = 1;
  uint32_t count = 1;  // the vector's length field
  std::string text = "x";
  uint32_t text_length = 1;  // the string's length field
  char terminator = '\0';
  uint32_t root = 16;
};

std::string flatbuffers_feed(const FbFeed& f) {
  std::string b;
  put32(b, f.root);
  b += "WBMS";
  put16(b, 0);  // padding: the vtable at 10 ends where the table starts
  put16(b, 6), put16(b, 8), put16(b, 4);
  put32(b, 6);  // at 16: the table, its vtable 6 bytes before
  put32(b, 4);  // at 20: the rows vector, at 24
  put32(b, f.count);
  const uint32_t vtable = 28 + 4 * f.elements;
  const uint32_t table = vtable + 8;
  for (uint32_t i = 0; i < f.elements; ++i) put32(b, table - (28 + 4 * i));
  put16(b, 8), put16(b, 12), put16(b, 4), put16(b, 8);
  put32(b, 8);  // the row table
  put32(b, 7);  // ID
  put32(b, 4);  // MessageText, at table + 12
  put32(b, f.text_length);
  b += f.text;
  b += f.terminator;
  while (b.size() % 4) b += '\0';
  return b;
}

void flatbuffers_fixtures(std::vector<Fixture>& out) {
  add_built(out, "decode_handmade_two_rows", "two rows sharing one table, built by hand",
            flatbuffers_feed({.elements = 2, .count = 2}), Expect::decode, messages(2, 7, "x"));
  add_built(out, "n_shared_row_40000_tables",
            "40,000 vector elements pointing at one row: more tables than the Verifier's limit",
            flatbuffers_feed({.elements = 40'000, .count = 40'000}), Expect::reject);
  add_built(out, "n_vector_count_2pow32", "the rows vector claims 2^32-1 elements",
            flatbuffers_feed({.count = 0xFFFFFFFF}), Expect::reject);
  add_built(out, "n_string_length_2pow32", "MessageText claims 2^32-1 bytes",
            flatbuffers_feed({.text_length = 0xFFFFFFFF}), Expect::reject);
  add_built(out, "n_string_without_nul", "MessageText without its NUL terminator",
            flatbuffers_feed({.terminator = 'y'}), Expect::reject);
  add_built(out, "n_root_offset_2pow32", "the root offset claims 2^32-1",
            flatbuffers_feed({.root = 0xFFFFFFFF}), Expect::reject);
  add_built(out, "n_root_misaligned", "the root table at an odd offset",
            flatbuffers_feed({.root = 17}), Expect::reject);
  add_built(out, "any_invalid_utf8", "MessageText with byte 0xFF",
            flatbuffers_feed({.text = "\xFF"}), Expect::any);
}

// ---------------------------------------------------------------- Cap'n Proto
uint64_t struct_pointer(int32_t offset, uint16_t data, uint16_t pointers) {
  return static_cast<uint32_t>(offset << 2) | uint64_t{data} << 32 | uint64_t{pointers} << 48;
}
uint64_t list_pointer(int32_t offset, unsigned element_size, uint32_t count) {
  return static_cast<uint32_t>(offset << 2 | 1) | uint64_t{element_size | count << 3} << 32;
}
// A one-segment message: the segment table, then the words.
std::string capnp_message(const std::vector<uint64_t>& words, uint32_t segments_minus_one = 0,
                          std::optional<uint32_t> size = std::nullopt) {
  std::string b;
  put32(b, segments_minus_one);
  put32(b, size.value_or(static_cast<uint32_t>(words.size())));
  for (uint64_t w : words) put64(b, w);
  return b;
}
uint64_t text_word(std::string_view s) {
  uint64_t w = 0;
  for (std::size_t i = 0; i < s.size() && i < 8; ++i)
    w |= uint64_t{static_cast<unsigned char>(s[i])} << (8 * i);
  return w;
}

// A Feed of n messages (ID 7) whose texts all point at one text of
// text_bytes - 1 'a's and its NUL, as encode lays out one message.
struct CpFeed {
  uint32_t rows = 1;
  uint32_t text_bytes = 2;  // with the NUL
  uint32_t list_words = 0;  // 0: the right count
  uint32_t text_count = 0;  // 0: text_bytes
  bool nul = true;
};
std::string capnp_feed(const CpFeed& f) {
  std::vector<uint64_t> w = {struct_pointer(0, 1, 1), 0};
  w.push_back(list_pointer(0, 7, f.list_words ? f.list_words : 2 * f.rows));
  w.push_back(struct_pointer(static_cast<int32_t>(f.rows), 1, 1));  // the list's tag
  const std::size_t text_at = 4 + 2 * f.rows;
  for (uint32_t i = 0; i < f.rows; ++i) {
    w.push_back(7);
    const std::size_t pointer_at = w.size();
    w.push_back(list_pointer(static_cast<int32_t>(text_at - pointer_at - 1), 2,
                             f.text_count ? f.text_count : f.text_bytes));
  }
  std::string text(f.text_bytes - 1, 'a');
  text += f.nul ? '\0' : 'b';
  for (std::size_t i = 0; i < text.size(); i += 8) w.push_back(text_word(text.substr(i)));
  return capnp_message(w);
}

std::vector<Fixture> capnp_fixtures() {
  std::vector<Fixture> out;
  add_built(out, "decode_handmade_two_rows", "two messages sharing one text, built by hand",
            capnp_feed({.rows = 2}), Expect::decode, messages(2, 7, "a"));
  add_built(out, "n_segment_count_2pow32", "the segment table claims 2^32 segments",
            capnp_message({0, 0}, 0xFFFFFFFF), Expect::reject);
  add_built(out, "n_segment_size_2pow32", "the segment table claims 2^32-1 words",
            capnp_message({struct_pointer(0, 1, 1), 0}, 0, 0xFFFFFFFF), Expect::reject);
  add_built(out, "n_list_words_2pow29", "the rows list claims 2^29-1 words",
            capnp_feed({.list_words = (1u << 29) - 1}), Expect::reject);
  add_built(out, "n_text_count_2pow29", "MessageText claims 2^29-1 bytes",
            capnp_feed({.text_count = (1u << 29) - 1}), Expect::reject);
  add_built(out, "n_text_without_nul", "MessageText without its NUL", capnp_feed({.nul = false}),
            Expect::reject);
  // The traversal limit: 2,000 rows reading one 64 KB text are 16 M words
  // of reading from a message of 12 K words.
  add_built(out, "n_shared_text_2000_rows_64kb",
            "2,000 messages pointing at one 64 KB text: past the traversal limit",
            capnp_feed({.rows = 2000, .text_bytes = 65'536}), Expect::reject);
  // Nesting: struct pointers, each to a struct holding the next.
  std::vector<uint64_t> chain(100'000, struct_pointer(0, 0, 1));
  chain.push_back(0);
  add_built(out, "n_deep_pointers_100000", "a chain of 100,000 nested struct pointers",
            capnp_message(chain), Expect::reject);
  add_built(out, "any_invalid_utf8", "MessageText with byte 0xFF",
            capnp_feed({.text_bytes = 2}).replace(8 + 6 * 8, 1, "\xFF"), Expect::any);
  return out;
}

// Cap'n Proto's packing, plainly: a tag byte of the non-zero bytes of each
// word, then those bytes, and a run length of 0 after a tag of 0x00 or 0xFF.
std::string pack(std::string_view flat) {
  std::string out;
  for (std::size_t at = 0; at + 8 <= flat.size(); at += 8) {
    unsigned tag = 0;
    std::string nonzero;
    for (int i = 0; i < 8; ++i)
      if (flat[at + i] != '\0') tag |= 1u << i, nonzero += flat[at + i];
    out += static_cast<char>(tag);
    out += nonzero;
    if (tag == 0 || tag == 0xFF) out += '\0';
  }
  return out;
}

void capnp_flat_fixtures(std::vector<Fixture>& out) {
  for (Fixture& f : capnp_fixtures()) out.push_back(std::move(f));
}

void capnp_packed_fixtures(std::vector<Fixture>& out) {
  for (Fixture& f : capnp_fixtures()) {
    f.bytes = pack(f.bytes);
    out.push_back(std::move(f));
  }
  // What the segment table claims is checked before it is allocated.
  std::string header;
  put32(header, 0);
  put32(header, 1u << 28);
  add_built(out, "n_packed_claims_2pow28_words", "20 bytes claiming a 2 GiB segment",
            pack(header) + repeat(bytes({0x00, 0xFF}), 4), Expect::reject);
  std::string claim;
  put32(claim, 0);
  put32(claim, 1u << 20);
  add_built(out, "n_packed_zero_runs_8mb", "8 KB of zero runs unpacking to 8 MB",
            pack(claim) + repeat(bytes({0x00, 0xFF}), 4096), Expect::reject);
}

}  // namespace

void binary_built(std::string_view format, std::vector<Fixture>& out) {
  // Garbage every binary decoder must survive (its answer is its own).
  add_built(out, "any_all_ff_64", "64 bytes of 0xFF", std::string(64, '\xFF'), Expect::any);
  add_built(out, "any_zeros_64", "64 zero bytes", std::string(64, '\0'), Expect::any);
  static const std::map<std::string_view, std::function<void(std::vector<Fixture>&)>, std::less<>>
      kCrafted = {{"protobuf", protobuf_fixtures},
                  {"flatbuffers", flatbuffers_fixtures},
                  {"capnp", capnp_flat_fixtures},
                  {"capnp-packed", capnp_packed_fixtures}};
  if (const auto it = kCrafted.find(format); it != kCrafted.end()) it->second(out);
  map_fixtures(format, out);  // msgpack, CBOR, BSON, Thrift, Avro
}

}  // namespace wb::test
