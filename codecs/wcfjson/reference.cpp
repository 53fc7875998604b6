// The hand-written wcfjson writer: DataContractJsonSerializer's text straight
// into one buffer, no infoset. The floor the infoset pairings are measured
// against (and the format's primary encoder for goldens).
#include "codecs/common/json_escape.hpp"
#include "codecs/registry.hpp"
#include "codecs/wcfjson/infoset.hpp"

namespace wb::wcfjson {
namespace {

// A JSON string with WCF's "\/" escapes.
void append_string(std::string& out, std::string_view v) {
  const std::size_t from = out.size();
  json::append_quoted(out, v);
  if (v.find('/') == std::string_view::npos) return;
  const std::string quoted = out.substr(from);
  out.resize(from);
  append_escaping_solidus(out, quoted);
}

template <class T>
void append_object(std::string& out, const T& record) {
  static constexpr auto kOrder = alphabetical_order<T>();
  out += '{';
  bool first = true;
  for (std::size_t index : kOrder) {
    visit_field_at(record, index, [&](std::string_view name, const auto& v) {
      using M = std::remove_cvref_t<decltype(v)>;
      if (!first) out += ',';
      first = false;
      out += '"';
      out.append(name).append("\":");
      if constexpr (is_record_list<M>) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (i) out += ',';
          append_object(out, v[i]);
        }
        out += ']';
      } else if constexpr (std::is_same_v<M, DateTime>) {
        append_string(out, text::wcf_date_string(v));
      } else if constexpr (std::is_same_v<M, std::string>) {
        append_string(out, v);
      } else {
        char buf[text::kMaxNumberChars];
        out.append(
            buf, std::is_same_v<M, double> ? text::write_double(buf, v) : text::write_int(buf, v));
      }
    });
  }
  out += '}';
}

class ReferenceEncoder : public EncoderFor<ReferenceEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    out += '[';
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i) out += ',';
      append_object(out, rows[i]);
    }
    out += ']';
  }
};

}  // namespace
}  // namespace wb::wcfjson

WB_DEFINE_ENCODER(wcfjson, reference, wb::wcfjson::ReferenceEncoder)
