#include "cli/canonical_json.hpp"

#include <cmath>

#include "codecs/common/json_escape.hpp"
#include "generators/text.hpp"

namespace wb::cli {
namespace {

// Declared first so that vectors of records (Contacts) find it.
template <class T>
requires is_record<T>
void append_value(std::string& out, const T& record);

void append_value(std::string& out, int32_t v) {
  char buf[text::kMaxNumberChars];
  out.append(buf, text::write_int(buf, v));
}

void append_value(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
  } else if (std::isinf(v)) {
    out += v < 0 ? "\"-INF\"" : "\"INF\"";
  } else {
    char buf[text::kMaxNumberChars];
    out.append(buf, text::write_double(buf, v));
  }
}

void append_value(std::string& out, const std::string& v) {
  json::append_quoted(out, v);
}

void append_value(std::string& out, DateTime v) {
  json::append_quoted(out, text::datetime_string(v));
}

template <class E>
void append_value(std::string& out, const std::vector<E>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_value(out, items[i]);
  }
  out += ']';
}

template <class T>
requires is_record<T>
void append_value(std::string& out, const T& record) {
  out += '{';
  bool first = true;
  for_each_field(record, [&](std::string_view name, const auto& member) {
    if (!first) out += ',';
    first = false;
    json::append_quoted(out, name);
    out += ':';
    append_value(out, member);
  });
  out += '}';
}

}  // namespace

void append_json_lines(std::string& out, const Records& records) {
  std::visit(
      [&](const auto& rows) {
        for (const auto& row : rows) {
          append_value(out, row);
          out += '\n';
        }
      },
      records);
}

void append_json_string(std::string& out, std::string_view text) {
  json::append_quoted(out, text);
}

}  // namespace wb::cli
