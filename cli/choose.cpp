#include "cli/choose.hpp"

#include <string>

#include "cli/args.hpp"

namespace wb::cli {
namespace {

constexpr std::string_view kDefaultEncoder = "reference";

bool validates_utf8(const CodecEntry& c) {
  return has_label(c.labels, label::kValidatesUtf8);
}

// The decoder a user gets without --library checks what it reads: a payload
// with invalid UTF-8 is refused, not copied through (the first decoders in
// registry order of atom and soap check no UTF-8, and exit 0 on it): the
// registry's validating pick, else the first exact decoder that validates.
const CodecEntry* default_decoder(std::string_view format) {
  const std::string_view pick = picked(Pick::validating, format, Role::decode);
  if (const CodecEntry* c = find_codec(format, Role::decode, pick); c && validates_utf8(*c))
    return c;
  const auto all = codecs_of(format, Role::decode);
  for (const CodecEntry* c : all)
    if (validates_utf8(*c) && c->exact) return c;
  for (const CodecEntry* c : all)
    if (validates_utf8(*c)) return c;
  return all.empty() ? nullptr : all.front();
}

std::string_view role_name(Role role) {
  return role == Role::encode ? "encoder" : "decoder";
}

// "a, b, c" for the "known: ..." part of an error.
template <class Range, class Name>
std::string join_names(const Range& range, Name name) {
  std::string out;
  for (const auto& item : range) {
    if (!out.empty()) out += ", ";
    out += std::string_view(name(item));
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::string_view choose_format(std::string_view name) {
  for (std::string_view f : formats())
    if (f == name) return f;
  throw UsageError("unknown format '" + std::string(name) + "' (known: " +
                   join_names(formats(), [](std::string_view f) { return f; }) + ")");
}

const DatasetInfo& choose_dataset(std::string_view name) {
  if (auto kind = dataset_by_name(name)) return dataset_info(*kind);
  throw UsageError("unknown dataset '" + std::string(name) + "' (known: " +
                   join_names(kDatasets, [](const DatasetInfo& d) { return d.name; }) + ")");
}

std::string dataset_names() {
  std::string out;
  for (const DatasetInfo& d : kDatasets) {
    if (!out.empty()) out += " | ";
    out += d.name;
  }
  return out;
}

std::string default_row_counts() {
  return join_names(kDatasets, [](const DatasetInfo& d) {
    return std::string(d.name) + ' ' + (d.sizes.empty() ? "none" : std::to_string(d.sizes[0]));
  });
}

const CodecEntry* default_codec(std::string_view format, Role role) {
  if (role == Role::decode) return default_decoder(format);
  if (const CodecEntry* c = find_codec(format, role, kDefaultEncoder)) return c;
  auto all = codecs_of(format, role);
  return all.empty() ? nullptr : all.front();
}

const CodecEntry& choose_codec(std::string_view format, Role role,
                               std::optional<std::string_view> library) {
  const CodecEntry* c = library ? find_codec(format, role, *library) : default_codec(format, role);
  if (c) return *c;
  const std::string known =
      join_names(codecs_of(format, role), [](const CodecEntry* e) { return e->library; });
  if (!library)
    throw UsageError("no " + std::string(role_name(role)) + " registered for format '" +
                     std::string(format) + "'");
  throw UsageError("unknown " + std::string(role_name(role)) + " '" + std::string(*library) +
                   "' for format '" + std::string(format) + "' (known: " + known + ")");
}

}  // namespace wb::cli
