// simdjson On-Demand's canonical form (Decoder::canonical), apart from the
// decoder that binds rows (simdjson_ondemand_decoder.cpp): the document
// walked once into CanonicalJson, its numbers read as ondemand_visit reads
// them (simdjson_ondemand_walk.hpp).
#include <simdjson.h>

#include "codecs/json/adapters/simdjson_ondemand_walk.hpp"
#include "codecs/json/canonical.hpp"

namespace wb::json {
namespace {

// A number into a canonical sink (codecs/json/canonical.hpp) as
// ondemand_visit reads it: get_number() (On-Demand's own reading, which the
// decoder's read_double corrects for long tokens), else get_double() (an
// integer beyond 64 bits).
template <class V, class Sink>
void ondemand_number(V& v, Sink& sink) {
  od::number n;
  if (v.get_number().get(n)) return sink.number(double(v.get_double()));
  switch (n.get_number_type()) {
    case od::number_type::signed_integer:
      return sink.integer(n.get_int64());
    case od::number_type::unsigned_integer:
      return sink.unsigned_integer(n.get_uint64());
    default:
      return sink.number(n.get_double());
  }
}

// A scalar into the sink; errors as simdjson_error, as ondemand_visit's.
template <class V, class Sink>
void ondemand_scalar(V& v, od::json_type type, Sink& sink) {
  switch (type) {
    case od::json_type::number:
      return ondemand_number(v, sink);
    case od::json_type::string:
      return sink.string(std::string_view(v.get_string()));
    case od::json_type::boolean:
      return sink.boolean(bool(v.get_bool()));
    default:
      if (!v.is_null()) throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
      return sink.null();
  }
}

// ondemand_visit's walk into a canonical sink.
template <class Sink>
void ondemand_canonical(od::value v, std::size_t depth, std::size_t max_depth, Sink& sink) {
  if (depth >= max_depth) throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
  const od::json_type type = v.type();
  if (type == od::json_type::array) {
    sink.start_array();
    for (auto element : v.get_array())
      ondemand_canonical(od::value(std::move(element)), depth + 1, max_depth, sink);
    sink.end_array();
  } else if (type == od::json_type::object) {
    sink.start_object();
    for (auto member : v.get_object()) {
      od::field field(std::move(member));
      sink.key(std::string_view(field.unescaped_key()));
      ondemand_canonical(field.value(), depth + 1, max_depth, sink);
    }
    sink.end_object();
  } else {
    ondemand_scalar(v, type, sink);
  }
}

}  // namespace

bool write_ondemand_canonical(OndemandInput& in, std::string_view input, std::string& out) {
  CanonicalJson sink(out);
  od::document& root = in.start(input);
  od::json_type type;
  in.check(root.type().get(type));
  try {
    if (type != od::json_type::array && type != od::json_type::object) {
      ondemand_scalar(root, type, sink);
    } else {
      od::value v;
      in.check(root.get_value().get(v));
      ondemand_canonical(v, 0, in.max_depth(), sink);
    }
  } catch (const simdjson::simdjson_error& e) {
    in.check(e.error());
  }
  in.check_end();
  return true;
}

}  // namespace wb::json
