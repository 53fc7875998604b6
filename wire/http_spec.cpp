#include "wire/http_spec.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include "codecs/compress/compressor.hpp"
#include "codecs/registry.hpp"
#include "wire/testbed.hpp"

namespace wire {
namespace {

// "http://198.18.0.2:8080", appended into one string: GCC 12 reports a false
// -Warray-bounds on the move out of an operator+ temporary (it cannot tell
// that a string in its local buffer fits there).
std::string service_origin() {
  std::string origin = "http://";
  origin.append(kServerAddress).append(1, ':').append(std::to_string(kHttpPort));
  return origin;
}

long long parse_integer(const std::string& key, const std::string& value, long long min) {
  char* end = nullptr;
  long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < min) {
    throw std::invalid_argument(key + "=" + value + ": needs an integer >= " + std::to_string(min));
  }
  return v;
}

bool parse_flag(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  throw std::invalid_argument(key + "=" + value + ": needs 0 or 1");
}

void set_field(HttpSpec& spec, const std::string& key, const std::string& value) {
  if (key == "dataset") {
    spec.dataset = value;
  } else if (key == "rows") {
    spec.rows = static_cast<int>(parse_integer(key, value, 1));
  } else if (key == "skip") {
    spec.skip = static_cast<int>(parse_integer(key, value, 0));
  } else if (key == "top") {
    spec.top = static_cast<int>(parse_integer(key, value, -1));
  } else if (key == "seed") {
    spec.seed = static_cast<std::uint64_t>(parse_integer(key, value, 0));
  } else if (key == "format") {
    spec.format = value;
  } else if (key == "encoder") {
    spec.encoder = value;
  } else if (key == "decoder") {
    spec.decoder = value;
  } else if (key == "encoding") {
    spec.encoding = value;
  } else if (key == "challenge") {
    spec.challenge = parse_flag(key, value);
  } else if (key == "fault") {
    if (!value.empty() && value != "die")
      throw std::invalid_argument("fault=" + value + ": is die");
    spec.fault = value;
  } else if (key == "paging") {
    spec.paging = parse_flag(key, value);
  } else if (key == "requests") {
    spec.requests = static_cast<int>(parse_integer(key, value, 1));
  } else if (key == "reconnect") {
    spec.reconnect = parse_flag(key, value);
  } else if (key == "warmup") {
    spec.warmup = static_cast<int>(parse_integer(key, value, 0));
  } else {
    throw std::invalid_argument("unknown key " + key);
  }
}

}  // namespace

std::string HttpSpec::query() const {
  std::string q = "dataset=" + dataset + "&rows=" + std::to_string(rows) +
                  "&skip=" + std::to_string(skip) + "&top=" + std::to_string(top) +
                  "&seed=" + std::to_string(seed) + "&format=" + format + "&encoder=" + encoder +
                  "&encoding=" + encoding;
  if (challenge) q += "&challenge=1";
  if (!fault.empty()) q += "&fault=" + fault;
  if (paging) q += "&paging=1";
  return q;
}

std::string HttpSpec::next_link() const {
  if (!paging || top < 0 || skip + top >= rows) return {};
  HttpSpec next = *this;
  next.skip = skip + top;
  next.challenge = false;  // the connection it rides is authenticated
  std::string link = service_origin();
  link.append("/rows?").append(next.query());
  return link;
}

int HttpSpec::page_rows() const {
  const int rest = std::max(rows - skip, 0);
  return top < 0 ? rest : std::min(top, rest);
}

HttpSpec parse_http_spec(const std::string& text) {
  HttpSpec spec;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(at, comma - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument(item + ": needs KEY=VALUE");
    set_field(spec, item.substr(0, eq), item.substr(eq + 1));
    at = comma + 1;
  }
  validate(spec);
  return spec;
}

void apply_params(HttpSpec& spec, const std::multimap<std::string, std::string>& params) {
  for (const auto& [key, value] : params) {
    if (key == "decoder" || key == "requests" || key == "reconnect")
      throw std::invalid_argument("unknown key " + key);
    set_field(spec, key, value);
  }
}

std::multimap<std::string, std::string> parse_query(const std::string& query) {
  std::multimap<std::string, std::string> params;
  for (std::size_t at = 0; at <= query.size();) {
    std::size_t amp = query.find('&', at);
    if (amp == std::string::npos) amp = query.size();
    const std::string item = query.substr(at, amp - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument(item);
    params.emplace(item.substr(0, eq), item.substr(eq + 1));
    at = amp + 1;
  }
  return params;
}

PageLink parse_next_link(const HttpSpec& base, const std::string& link) {
  const std::string origin = service_origin();
  if (link.rfind(origin + "/rows?", 0) != 0)
    throw std::invalid_argument("next link " + link + ": not a page of this service");
  PageLink out{link.substr(origin.size()), base};
  std::multimap<std::string, std::string> params;
  try {
    params = parse_query(link.substr(origin.size() + 6));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("next link " + link + ": " + e.what());
  }
  out.spec.challenge = false;
  out.spec.fault.clear();
  out.spec.paging = false;
  apply_params(out.spec, params);
  validate(out.spec);
  return out;
}

void validate(HttpSpec& spec) {
  const auto kind = wb::dataset_by_name(spec.dataset);
  if (!kind || *kind == wb::DatasetKind::entity) {
    throw std::invalid_argument("dataset " + spec.dataset + ": is message, airport or science");
  }
  if (!wb::defined_for(wb::dataset_info(*kind), spec.format) ||
      wb::codecs_of(spec.format, wb::Role::encode).empty()) {
    throw std::invalid_argument("format " + spec.format + ": unknown for " + spec.dataset);
  }
  if (!wb::find_codec(spec.format, wb::Role::encode, spec.encoder)) {
    throw std::invalid_argument("encoder " + spec.encoder + ": no such " + spec.format +
                                " encoder");
  }
  if (spec.decoder.empty()) {
    for (const wb::CodecEntry* c : wb::codecs_of(spec.format, wb::Role::decode)) {
      if (c->exact) {
        spec.decoder = std::string(c->library);
        break;
      }
    }
  }
  if (!wb::find_codec(spec.format, wb::Role::decode, spec.decoder)) {
    throw std::invalid_argument("decoder " + spec.decoder + ": no such " + spec.format +
                                " decoder");
  }
  if (spec.encoding != "identity") {
    const auto all = wb::compressors();
    if (std::none_of(all.begin(), all.end(),
                     [&](const auto& c) { return c.name == spec.encoding; })) {
      throw std::invalid_argument("encoding " + spec.encoding + ": is identity, gzip, br or zstd");
    }
  }
  // The formats with feeds are those of the generic entity dataset.
  if (spec.paging && !wb::defined_for(wb::dataset_info(wb::DatasetKind::entity), spec.format)) {
    throw std::invalid_argument("paging: " + spec.format + " has no feeds to page");
  }
  if (spec.skip >= spec.rows) {
    throw std::invalid_argument("skip " + std::to_string(spec.skip) + ": past the " +
                                std::to_string(spec.rows) + " rows");
  }
}

wb::Records page_records(const HttpSpec& spec) {
  const wb::Records all = wb::generate(*wb::dataset_by_name(spec.dataset), spec.rows, spec.seed);
  const auto from = static_cast<std::size_t>(spec.skip);
  const auto to = from + static_cast<std::size_t>(spec.page_rows());
  return std::visit(
      [&](const auto& rows) -> wb::Records {
        using Rows = std::decay_t<decltype(rows)>;
        return Rows(rows.begin() + static_cast<std::ptrdiff_t>(from),
                    rows.begin() + static_cast<std::ptrdiff_t>(to));
      },
      all);
}

const char* content_type(const std::string& format) {
  // The format's WB_FORMAT line (codecs/registry.def) carries its media type.
  const wb::FormatEntry* f = wb::find_format(format);
  return f ? f->media_type.data() : "application/octet-stream";
}

}  // namespace wire
