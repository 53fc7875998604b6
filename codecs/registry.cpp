#include "codecs/registry.hpp"

#include <algorithm>
#include <utility>

// Every line kind, expanding to nothing unless a list below defines it.
#define WB_FORMAT(ident, name, syntax, media_type)
#define WB_ENCODER(format, ident, name, labels)
#define WB_DECODER(format, ident, name, exact, labels)
#define WB_ACCESSOR(format, ident, name, labels)
#define WB_ROUTER(format, ident, name, labels)
#define WB_PICK(pick, format, role, name)

// Declare every factory named in the registry, weak: a library left out of
// the build (cmake: WB_WITH_<LIBRARY>=OFF) leaves its adapters' factories
// undefined, their addresses null, and its lines out of the lists below. The
// executables link the codecs' whole archive (CMakeLists.txt), since a weak
// reference alone pulls no adapter out of it...
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ACCESSOR
#undef WB_ROUTER
#define WB_ENCODER(format, ident, name, labels) \
  [[gnu::weak]] std::unique_ptr<wb::Encoder> wb_make_encoder_##format##_##ident();
#define WB_DECODER(format, ident, name, exact, labels) \
  [[gnu::weak]] std::unique_ptr<wb::Decoder> wb_make_decoder_##format##_##ident();
#define WB_ACCESSOR(format, ident, name, labels) \
  [[gnu::weak]] std::unique_ptr<wb::Accessor> wb_make_accessor_##format##_##ident();
#define WB_ROUTER(format, ident, name, labels) \
  [[gnu::weak]] std::unique_ptr<wb::Router> wb_make_router_##format##_##ident();
#include "codecs/registry.def"
#undef WB_ENCODER
#undef WB_DECODER
#undef WB_ACCESSOR
#undef WB_ROUTER
#define WB_ENCODER(format, ident, name, labels)
#define WB_DECODER(format, ident, name, exact, labels)
#define WB_ACCESSOR(format, ident, name, labels)
#define WB_ROUTER(format, ident, name, labels)

// ...and each format's name under its identifier, which is all a codec line
// can name (a line of an undeclared format fails to compile here).
namespace wb::format_name {
#undef WB_FORMAT
#define WB_FORMAT(ident, name, syntax, media_type) inline constexpr std::string_view ident = name;
#include "codecs/registry.def"
#undef WB_FORMAT
#define WB_FORMAT(ident, name, syntax, media_type)
}  // namespace wb::format_name

namespace wb {
namespace {

// A registry line names its format by an identifier (json_v4), which also
// names the factory; the format's name has dashes for its underscores
// ("json-v4"), made at compile time into static storage.
template <std::size_t N>
struct Dashed {
  char text[N];
  constexpr Dashed(const char (&s)[N]) {  // NOLINT: implicit, for the template argument
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i] == '_' ? '-' : s[i];
  }
};
template <Dashed D>
constexpr std::string_view dashed() {
  return {D.text, sizeof(D.text) - 1};
}

bool built(const CodecEntry& c) {
  return c.make_encoder || c.make_decoder;
}
template <class Entry>
bool built(const Entry& e) {
  return e.make != nullptr;
}
// The entries of all whose adapters were built, in registry order.
template <class Entry>
std::vector<Entry> built_of(std::span<const Entry> all) {
  std::vector<Entry> out;
  for (const Entry& e : all)
    if (built(e)) out.push_back(e);
  return out;
}

std::span<const CodecEntry> all_codecs();
std::span<const RouterEntry> all_routers();
std::span<const AccessorEntry> all_accessors();

}  // namespace

std::span<const FormatEntry> format_entries() {
#undef WB_FORMAT
#define WB_FORMAT(ident, name, syntax, media_type) {name, Syntax::syntax, media_type},
  static const FormatEntry kFormats[] = {
#include "codecs/registry.def"
  };
#undef WB_FORMAT
#define WB_FORMAT(ident, name, syntax, media_type)
  return kFormats;
}

namespace {

// A format takes part in a build only with an encoder and a decoder built:
// its decoders check every encoder's output, and its encoders make every
// decoder's input. A format whose every library of one role was left out
// (atom's reference encoder, with every XML library off) is left out whole.
bool in_build(const CodecEntry& c) {
  if (!built(c)) return false;
  bool encoder = false, decoder = false;
  for (const CodecEntry& other : all_codecs())
    if (other.format == c.format && built(other))
      (other.role == Role::encode ? encoder : decoder) = true;
  return encoder && decoder;
}

}  // namespace

std::span<const CodecEntry> codecs() {
  static const std::vector<CodecEntry> kBuilt = [] {
    std::vector<CodecEntry> out;
    for (const CodecEntry& c : all_codecs())
      if (in_build(c)) out.push_back(c);
    return out;
  }();
  return kBuilt;
}

std::span<const RouterEntry> routers() {
  static const std::vector<RouterEntry> kBuilt = built_of(all_routers());
  return kBuilt;
}

std::span<const AccessorEntry> accessors() {
  static const std::vector<AccessorEntry> kBuilt = built_of(all_accessors());
  return kBuilt;
}

std::vector<std::string> left_out_codecs() {
  std::vector<std::string> out;
  auto key = [](const std::string& context_key) { return context_key.substr(6); };  // "codec."
  for (const auto& c : all_codecs())
    if (!in_build(c)) out.push_back(key(label_context_key(c)));
  for (const auto& r : all_routers())
    if (!built(r)) out.push_back(key(label_context_key(r)));
  for (const auto& a : all_accessors())
    if (!built(a)) out.push_back(key(label_context_key(a)));
  return out;
}

namespace {

std::span<const CodecEntry> all_codecs() {
  // ...and list them.
#undef WB_ENCODER
#undef WB_DECODER
#define WB_ENCODER(format, ident, name, labels) \
  {format_name::format,                         \
   name,                                        \
   Role::encode,                                \
   true,                                        \
   labels,                                      \
   &wb_make_encoder_##format##_##ident,         \
   nullptr},
#define WB_DECODER(format, ident, name, exact, labels) \
  {format_name::format,                                \
   name,                                               \
   Role::decode,                                       \
   exact,                                              \
   labels,                                             \
   nullptr,                                            \
   &wb_make_decoder_##format##_##ident},
  static const CodecEntry kCodecs[] = {
#include "codecs/registry.def"
  };
#undef WB_ENCODER
#undef WB_DECODER
#define WB_ENCODER(format, ident, name, labels)
#define WB_DECODER(format, ident, name, exact, labels)
  return kCodecs;
}

std::span<const RouterEntry> all_routers() {
#undef WB_ROUTER
#define WB_ROUTER(format, ident, name, labels) \
  {format_name::format, name, labels, &wb_make_router_##format##_##ident},
  static const RouterEntry kRouters[] = {
#include "codecs/registry.def"
  };
#undef WB_ROUTER
#define WB_ROUTER(format, ident, name, labels)
  return kRouters;
}

std::span<const AccessorEntry> all_accessors() {
#undef WB_ACCESSOR
#define WB_ACCESSOR(format, ident, name, labels) \
  {format_name::format, name, labels, &wb_make_accessor_##format##_##ident},
  // A registry may have none: the list then holds only the end marker.
  static const AccessorEntry kAccessors[] = {
#include "codecs/registry.def"
      {{}, {}, {}, nullptr}};
#undef WB_ACCESSOR
#define WB_ACCESSOR(format, ident, name, labels)
  return std::span<const AccessorEntry>(kAccessors, std::size(kAccessors) - 1);
}

}  // namespace

std::vector<const AccessorEntry*> accessors_of(std::string_view format) {
  std::vector<const AccessorEntry*> out;
  for (const auto& a : accessors())
    if (a.format == format) out.push_back(&a);
  return out;
}

const FormatEntry* find_format(std::string_view name) {
  for (const auto& f : format_entries())
    if (f.name == name) return &f;
  return nullptr;
}

std::string_view syntax_name(Syntax syntax) {
  switch (syntax) {
    case Syntax::json:
      return "json";
    case Syntax::xml:
      return "xml";
    case Syntax::binary:
      break;
  }
  return "binary";
}

std::vector<const RouterEntry*> routers_of(std::string_view format) {
  std::vector<const RouterEntry*> out;
  for (const auto& r : routers())
    if (r.format == format) out.push_back(&r);
  return out;
}

std::vector<std::string_view> formats() {
  std::vector<std::string_view> out;
  for (const auto& c : codecs())
    if (std::find(out.begin(), out.end(), c.format) == out.end()) out.push_back(c.format);
  return out;
}

std::vector<const CodecEntry*> codecs_of(std::string_view format, Role role) {
  std::vector<const CodecEntry*> out;
  for (const auto& c : codecs())
    if (c.format == format && c.role == role) out.push_back(&c);
  return out;
}

std::vector<std::string_view> label_items(std::string_view labels) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == '(') ++depth;
    if (labels[i] == ')') --depth;
    if (depth == 0 && labels.substr(i, 2) == ", ") {
      out.push_back(labels.substr(start, i - start));
      start = i + 2;
    }
  }
  if (start < labels.size()) out.push_back(labels.substr(start));
  return out;
}

bool has_label(std::string_view labels, std::string_view word) {
  for (std::string_view item : label_items(labels))
    if (item == word || (item.starts_with(word) && item.substr(word.size()).starts_with(" (")))
      return true;
  return false;
}

std::string label_context_key(const CodecEntry& c) {
  return "codec." + std::string(c.format) + (c.role == Role::encode ? ".encode." : ".decode.") +
         std::string(c.library);
}

std::string label_context_key(const RouterEntry& r) {
  return "codec." + std::string(r.format) + ".route." + std::string(r.library);
}

std::string label_context_key(const AccessorEntry& a) {
  return "codec." + std::string(a.format) + ".access." + std::string(a.library);
}

namespace {
// Made at its first use: the adapters' FixedSetting objects are made before
// main in no set order, possibly before this file's own objects.
std::vector<LibrarySetting>& applied_settings() {
  static std::vector<LibrarySetting> settings;
  return settings;
}
}  // namespace

FixedSetting::FixedSetting(std::string_view library, std::string_view name, std::string value,
                           void (*apply)()) {
  apply();
  std::string key = "library.";
  key.append(library).append(1, '.').append(name);
  applied_settings().push_back({std::move(key), std::move(value)});
}

std::span<const LibrarySetting> library_settings() {
  return applied_settings();
}

std::string_view picked(Pick pick, std::string_view format, Role role) {
  struct PickEntry {
    Pick pick;
    std::string_view format;
    Role role;
    std::string_view library;
  };
#undef WB_PICK
#define WB_PICK(pick, format, role, name) {Pick::pick, format_name::format, Role::role, name},
  static const PickEntry kPicks[] = {
#include "codecs/registry.def"
  };
#undef WB_PICK
#define WB_PICK(pick, format, role, name)
  for (const PickEntry& p : kPicks)
    if (p.pick == pick && p.format == format && p.role == role &&
        find_codec(format, role, p.library))
      return p.library;
  return {};
}

const CodecEntry* find_codec(std::string_view format, Role role, std::string_view library) {
  for (const auto& c : codecs())
    if (c.format == format && c.role == role && c.library == library) return &c;
  return nullptr;
}

}  // namespace wb
