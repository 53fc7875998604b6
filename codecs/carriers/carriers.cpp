#include "codecs/carriers/carriers.hpp"

#include <algorithm>
#include <stdexcept>

#include "generators/datasets.hpp"

namespace wb {
namespace {

// A JSON library whose object model sorts or merges members (JsonCpp's
// std::map, cJSON's lost number types) opts out of the entity dataset
// (codecs/codec.hpp, kEntityRows); its codec says so before it reads or
// writes a byte.
bool takes_entity_rows(const CodecEntry* codec) {
  Records none = empty_records(DatasetKind::entity);
  const std::string padded = padded_copy("");
  try {
    std::string out;
    if (codec->role == Role::encode)
      codec->make_encoder()->encode(none, out);
    else
      codec->make_decoder()->decode(std::string_view(padded.data(), 0), none);
  } catch (const std::invalid_argument& e) {
    return e.what() != kNoEntityRows;
  } catch (const DecodeError& e) {
    return e.what() != kNoEntityRows;
  } catch (...) {
  }
  return true;
}

// A registry codec as a carrier's: the OData codecs need no schema.
std::vector<CarrierCodec> entity_codecs(std::string_view format, Role role) {
  std::vector<CarrierCodec> out;
  for (const CodecEntry* c : codecs_of(format, role)) {
    if (!takes_entity_rows(c)) continue;
    out.push_back({c->library, c->exact,
                   [c](const carry::EntitySchema&) { return c->make_encoder(); },
                   [c](const carry::EntitySchema&) { return c->make_decoder(); }});
  }
  return out;
}

}  // namespace

const std::vector<Carrier>& carriers() {
  static const std::vector<Carrier> all = [] {
    std::vector<Carrier> out;
    // Every OData dialect writes and reads any entity row: what one of them
    // cannot say shows when its payload is read back.
    for (std::string_view format : kEntityFormats) {
      Carrier c{format, entity_codecs(format, Role::encode), entity_codecs(format, Role::decode),
                [](const Records&) { return std::string(); }};
      if (!c.encoders.empty() && !c.decoders.empty()) out.push_back(std::move(c));
    }
    for (auto* add :
         {carry::add_libprotobuf_dynamic, carry::add_flatbuffers_tables, carry::add_capnp_dynamic,
          carry::add_nlohmann_maps, carry::add_thrift_protocol, carry::add_avro_c_generic})
      if (add) add(out);
    return out;
  }();
  return all;
}

std::string not_carried_yet() {
  std::string out;
  for (std::string_view format : formats()) {
    const FormatEntry* entry = find_format(format);
    if (!entry || entry->syntax != Syntax::binary) continue;
    if (std::ranges::any_of(carriers(), [&](const Carrier& c) { return c.format == format; }))
      continue;
    out += (out.empty() ? "" : ", ") + std::string(format);
  }
  return out;
}

}  // namespace wb
