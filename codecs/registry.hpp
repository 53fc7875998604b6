// Lookup over codecs/registry.def.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/router.hpp"

namespace wb {

enum class Role { encode, decode };

// What a format's payloads are: JSON or XML text, or binary.
enum class Syntax { json, xml, binary };

// A WB_FORMAT line.
struct FormatEntry {
  std::string_view name;  // "json", "capnp-packed"
  Syntax syntax;
  std::string_view media_type;  // its HTTP Content-Type (a literal: data() ends in a NUL)
};
// Every declared format, in registry order (a format is declared before its
// codecs land, so formats() below may list fewer).
std::span<const FormatEntry> format_entries();
// The declared format named name, or nullptr.
const FormatEntry* find_format(std::string_view name);
std::string_view syntax_name(Syntax syntax);  // "json", "xml", "binary"

struct CodecEntry {
  std::string_view format;   // "json", "atom", "capnp-packed", ...
  std::string_view library;  // the token --library takes, e.g. "rapidjson-sax"
  Role role;
  bool exact;  // decoders: doubles round-trip exactly
  // What the codec does, as shown by `list --verbose`, the result file's
  // context and the report: items from the vocabulary below, joined by ", ".
  std::string_view labels;
  std::unique_ptr<Encoder> (*make_encoder)();
  std::unique_ptr<Decoder> (*make_decoder)();
};

// Every codec that was built, in registry order (a library left out of the
// build, cmake's WB_WITH_<LIBRARY>=OFF, leaves its lines out of every list).
std::span<const CodecEntry> codecs();
// The registry lines left out of this build, as "json.decode.poco",
// "soap.route.xerces-sax-sniff": empty in a build with every library.
std::vector<std::string> left_out_codecs();
// Formats that have codecs, in the order of their first codec line, each once.
std::vector<std::string_view> formats();
std::vector<const CodecEntry*> codecs_of(std::string_view format, Role role);
const CodecEntry* find_codec(std::string_view format, Role role, std::string_view library);

// What a WB_PICK line picks a codec for (codecs/registry.def says where each
// is used).
enum class Pick { validating, field };
// The library token of the codec picked for format and role, or an empty view
// when the registry picks none (or the picked codec was not built).
std::string_view picked(Pick pick, std::string_view format, Role role);

// The content routers (WB_ROUTER lines), a list of their own: a router is
// neither an encoder nor a decoder.
struct RouterEntry {
  std::string_view format;
  std::string_view library;
  std::string_view labels;  // as CodecEntry::labels
  std::unique_ptr<Router> (*make)();
};
std::span<const RouterEntry> routers();
std::vector<const RouterEntry*> routers_of(std::string_view format);

// The in-place readers of the zero-copy formats (WB_ACCESSOR lines), a list
// of their own as well: an accessor materializes no records.
struct AccessorEntry {
  std::string_view format;
  std::string_view library;
  std::string_view labels;  // as CodecEntry::labels, of the verified access
  std::unique_ptr<Accessor> (*make)();
};
std::span<const AccessorEntry> accessors();
std::vector<const AccessorEntry*> accessors_of(std::string_view format);

// The label vocabulary (docs/methodology.md, "What each codec does"). A
// labels string is items joined by ", " (a comma inside parentheses belongs
// to its item); an item may add detail in parentheses after its word.
namespace label {
// Decoders, first item: the API.
inline constexpr std::string_view kDom = "DOM";
inline constexpr std::string_view kSax = "SAX";
inline constexpr std::string_view kPull = "pull";
inline constexpr std::string_view kOnDemand = "on-demand";
// Decoders, second item: where the parsed values live.
inline constexpr std::string_view kInSitu = "in situ";
inline constexpr std::string_view kCopying = "copying";
inline constexpr std::string_view kNoTree = "no tree";
// Decoders: exactly one of these two.
inline constexpr std::string_view kValidatesUtf8 = "validates UTF-8";
inline constexpr std::string_view kNoUtf8Check = "no UTF-8 check";
// JSON and wcfjson decoders: exactly one of these two, matching `exact`.
inline constexpr std::string_view kExactDoubles = "exact doubles";
inline constexpr std::string_view kInexactDoubles = "inexact doubles";
// Encoders, first item.
inline constexpr std::string_view kStreamingWriter = "streaming writer";
inline constexpr std::string_view kTreeThenSerialized = "tree then serialized";
// Routers, first item.
inline constexpr std::string_view kXpathOverDom = "XPath over a DOM";
inline constexpr std::string_view kStreamingSniff = "streaming sniff";
// Binary formats' codecs, each one of every pair below.
// The API: code generated from the format's schema, or a generic reader or
// writer of the format's values (a msgpack or CBOR tree, a BSON document).
inline constexpr std::string_view kGeneratedCode = "generated code";
inline constexpr std::string_view kGeneric = "generic";
// The layout: rows as maps that carry each field's name (as JSON does), or
// as arrays / numbered fields that carry none.
inline constexpr std::string_view kMapLayout = "map layout";
inline constexpr std::string_view kArrayLayout = "array layout";
// Decoders of binary formats, second item: strings copied into the library's
// objects or read in place (a zero-copy format's decoder still copies into
// the records; `zero-copy` says where the library itself keeps them).
inline constexpr std::string_view kZeroCopy = "zero-copy";
// Accessors, first item: the library's verifier runs before the fields are
// read (`access`); the `access-unverified` row of the same accessor skips it.
inline constexpr std::string_view kVerifiedAccess = "verified access";
// An encoder that cannot write some value exactly, with what it loses
// (tests/binary_formats_test.cpp holds it to that).
inline constexpr std::string_view kDropsNegativeZero = "drops -0.0";
inline constexpr std::string_view kDropsNanPayloads = "drops NaN payloads";
// A codec of a format that defines the entity dataset (json, atom) that
// cannot carry entity rows as they are (JsonCpp's writer sorts an object's
// members; cJSON keeps no number type, so a whole double without an
// annotation, as v2 writes it, comes back an integer): the pairings leave
// that dataset out for it, and such an encoder refuses it.
inline constexpr std::string_view kNoEntityRows = "no entity rows";
}  // namespace label

// The items of a labels string, in order, with their parenthesised detail.
std::vector<std::string_view> label_items(std::string_view labels);
// Whether an item of labels is word, alone or followed by " (detail)".
bool has_label(std::string_view labels, std::string_view word);
// The result file's context key of a codec's labels:
// "codec.json.decode.rapidjson-dom", "codec.soap.route.expat-sniff".
std::string label_context_key(const CodecEntry& c);
std::string label_context_key(const RouterEntry& r);
// "codec.flatbuffers.access.flatbuffers"
std::string label_context_key(const AccessorEntry& a);

// A setting an adapter fixes in its library for the whole process where the
// library would otherwise draw it at random, such as the seed of its hash
// tables: which keys share a bucket decides the instructions a parse takes,
// and `wirebench icount` holds two runs of one build to the same counts. An
// adapter fixes one with a FixedSetting object at namespace scope, which
// applies it before main, so before the library makes any object, in every
// executable that links the codecs (benchmarks, tests, CLI).
class FixedSetting {
 public:
  // library: the name its version has in the result file's context
  // ("library.jansson"); name and value: what apply() sets, and to what.
  FixedSetting(std::string_view library, std::string_view name, std::string value, void (*apply)());
};
struct LibrarySetting {
  std::string context_key;  // "library.jansson.hash_seed"
  std::string value;
};
// Every setting the adapters applied, for the result file's context.
std::span<const LibrarySetting> library_settings();

}  // namespace wb

// An adapter file ends with WB_DEFINE_ENCODER(json, rapidjson, RapidjsonEncoder)
// to define the factory its registry line names.
#define WB_DEFINE_ENCODER(format, ident, Class)                       \
  std::unique_ptr<wb::Encoder> wb_make_encoder_##format##_##ident() { \
    return std::make_unique<Class>();                                 \
  }
#define WB_DEFINE_DECODER(format, ident, Class)                       \
  std::unique_ptr<wb::Decoder> wb_make_decoder_##format##_##ident() { \
    return std::make_unique<Class>();                                 \
  }
#define WB_DEFINE_ACCESSOR(format, ident, Class)                        \
  std::unique_ptr<wb::Accessor> wb_make_accessor_##format##_##ident() { \
    return std::make_unique<Class>();                                   \
  }
