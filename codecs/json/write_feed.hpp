// write_feed: a page of rows as an OData JSON feed in any dialect
// (codecs/json/dialect.hpp), driving any library's writer "sink":
//   start_object() end_object() start_array() end_array()
//   key(string_view) string(string_view) int32(int32_t) number(double)
//   boolean(bool) null() (the last two for entity rows only)
// and, where the library can write JSON text as it is,
//   raw_string(string_view)   a whole string token, quotes included
// which verbose JSON's "\/Date(ms)\/" takes (a sink without it writes the
// same string as "/Date(ms)/"). The sinks of formats whose containers are
// headed by their size (msgpack, CBOR) take it: start_object(n),
// start_array(n). write_map_feed writes the binary formats' map layout.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/entity.hpp"
#include "codecs/common/odata.hpp"
#include "codecs/json/dialect.hpp"
#include "generators/datasets.hpp"
#include "generators/text.hpp"

namespace wb::json {

// What write_feed writes around the rows.
struct Envelope {
  Dialect dialect = Dialect::light;
  const FeedPage* page = nullptr;  // the next link and count; nullptr: none
};

// "{service root}$metadata#{entity set}": v3's odata.metadata, v4's
// @odata.context. Appended into one string, as odata::qualified_name is.
template <class T>
const std::string& metadata_url() {
  static const std::string url = [] {
    const DatasetInfo& d = dataset_info(dataset_of<T>());
    constexpr std::string_view kMetadata = "$metadata#";
    std::string out;
    out.reserve(d.service_root.size() + kMetadata.size() + d.entity_set.size());
    out.append(d.service_root).append(kMetadata).append(d.entity_set);
    return out;
  }();
  return url;
}

// Edm.DateTime as verbose JSON writes it: "\/Date(ms)\/", the solidus
// escaped so that a reader can tell the date from a string.
template <class Sink>
void write_wcf_date(Sink& w, DateTime t) {
  int64_t ms = t.ticks / 10'000;
  if (t.ticks % 10'000 < 0) --ms;
  char digits[text::kMaxNumberChars];
  const std::string_view n(digits, text::write_int(digits, ms) - digits);
  char buf[text::kMaxNumberChars + 16];
  char* p = buf;
  const auto put = [&](std::string_view s) {
    for (char c : s) *p++ = c;
  };
  if constexpr (requires { w.raw_string(std::string_view()); }) {
    put(R"("\/Date()"), put(n), put(R"()\/")");
    w.raw_string({buf, static_cast<std::size_t>(p - buf)});
  } else {
    put("/Date("), put(n), put(")/");
    w.string({buf, static_cast<std::size_t>(p - buf)});
  }
}

template <class Sink, class Row, class T>
void write_record(Sink& w, const T& r, Dialect d);

// A container opened with its size where the sink takes one.
template <class Sink>
void open_object(Sink& w, std::size_t members) {
  if constexpr (requires { w.start_object(members); })
    w.start_object(members);
  else
    w.start_object();
}
template <class Sink>
void open_array(Sink& w, std::size_t elements) {
  if constexpr (requires { w.start_array(elements); })
    w.start_array(elements);
  else
    w.start_array();
}

template <class Sink>
void write_value(Sink& w, int32_t v, Dialect) {
  w.int32(v);
}
template <class Sink>
void write_value(Sink& w, double v, Dialect) {
  w.number(v);
}
template <class Sink>
void write_value(Sink& w, const std::string& v, Dialect) {
  w.string(v);
}
template <class Sink>
void write_value(Sink& w, DateTime v, Dialect d) {
  if (d == Dialect::verbose) return write_wcf_date(w, v);
  char buf[text::kDateTimeChars + 1];
  w.string(std::string_view(buf, text::write_datetime(buf, v) - buf));
}
// A list of complex values: v2 has no collections and writes it as an
// expanded feed, {"results": [...]}, each item with its type.
template <class Sink, class Row, class E>
void write_list(Sink& w, const std::vector<E>& items, Dialect d) {
  if (d == Dialect::verbose) {
    open_object(w, 1);
    w.key("results");
  }
  open_array(w, items.size());
  for (const E& e : items) write_record<Sink, Row>(w, e, d);
  w.end_array();
  if (d == Dialect::verbose) w.end_object();
}

// The members of a record. Rows carry no annotations in v3 (no odata.etag,
// as Azure's nometadata rows): the members are the data. Decoders skip
// annotations, __metadata and members they do not know.
template <class Sink, class Row, class T>
void write_record(Sink& w, const T& r, Dialect d) {
  constexpr bool complex = !std::is_same_v<T, Row>;
  open_object(w, field_count<T> + (complex && d == Dialect::verbose ? 1 : 0));
  if constexpr (complex) {
    if (d == Dialect::verbose) {  // a complex value: its type
      w.key("__metadata");
      open_object(w, 1);
      w.key("type");
      w.string(odata::complex_type_name<Row, T>());
      w.end_object();
    }
  }
  for_each_field(r, [&](std::string_view name, const auto& v) {
    w.key(name);
    if constexpr (is_record_list<std::remove_cvref_t<decltype(v)>>)
      write_list<Sink, Row>(w, v, d);
    else
      write_value(w, v, d);
  });
  w.end_object();
}

// A row's own annotations before its members: v2's __metadata (url: the
// entity's id and uri), v4's @odata.etag. Azure rows have an ETag.
template <class Sink, class T>
void write_row_head(Sink& w, const T& r, Dialect d, const std::string& url) {
  char etag[text::kAzureEtagChars];
  std::string_view tag;
  if constexpr (std::is_same_v<T, ScienceRow>)
    tag = std::string_view(etag, text::write_azure_etag(etag, r.Timestamp) - etag);
  if (d == Dialect::v4 && !tag.empty()) {
    w.key("@odata.etag");
    w.string(tag);
  }
  if (d != Dialect::verbose) return;
  w.key("__metadata");
  w.start_object();
  w.key("id");
  w.string(url);
  w.key("uri");
  w.string(url);
  w.key("type");
  w.string(odata::entity_type_name<T>());
  if (!tag.empty()) {
    w.key("etag");
    w.string(tag);
  }
  w.end_object();
}

// An entity row: properties in order. v3 and v4 put a "Name@odata.type"
// annotation before the ones whose type a reader would not infer from the
// JSON value (codecs/common/entity.hpp), v4 in its own spelling ("#Int64").
// v2 has no annotations: a type the JSON value does not tell is lost, but
// Edm.DateTime is "\/Date(ms)\/", which readers take for a date. Edm.Int32,
// Edm.Double and Edm.Boolean values are JSON numbers and literals; every
// other value, Edm.Int64 included (as OData V3 writes it), is a string.
// Nested values (Complex, Collection, ...) hold JSON text, which is written
// as a string: the row round-trips, but the payload does not re-expand it.
template <class Sink>
void write_entity(Sink& w, const EntityRow& row, Dialect d, const std::string& url) {
  w.start_object();
  write_row_head(w, row, d, url);
  for (const EntityProperty& p : row.Properties) {
    const std::string_view null_of = entity::null_of(p.Type);
    const std::string_view declared = null_of.empty() ? std::string_view(p.Type) : null_of;
    std::optional<double> number;
    std::optional<int32_t> int32;
    std::optional<DateTime> date;
    if (null_of.empty() && declared == entity::kDouble) number = text::parse_double(p.Value);
    if (null_of.empty() && declared == entity::kInt32) int32 = text::parse_int32(p.Value);
    if (null_of.empty() && declared == "Edm.DateTime" && d == Dialect::verbose)
      date = text::parse_datetime(p.Value);
    const bool boolean = null_of.empty() && declared == entity::kBoolean &&
                         (p.Value == "true" || p.Value == "false");
    // A whole double is written without a fraction by some writers: say so.
    const bool inferable = declared == entity::kString || int32 || boolean ||
                           (number && std::isfinite(*number) && *number != std::trunc(*number));
    if (!inferable && d != Dialect::verbose) {
      w.key(p.Name + "@odata.type");
      w.string(d == Dialect::v4 ? entity::type_to_v4(declared) : std::string(declared));
    }
    w.key(p.Name);
    if (!null_of.empty())
      w.null();
    else if (int32)
      w.int32(*int32);
    else if (number && std::isfinite(*number))
      w.number(*number);
    else if (boolean)
      w.boolean(p.Value == "true");
    else if (date)
      write_wcf_date(w, *date);
    else
      w.string(p.Value);
  }
  w.end_object();
}

template <class Sink, class T>
void write_rows(Sink& w, const std::vector<T>& rows, Dialect d) {
  std::string url;  // reused: no allocation per row
  if (d == Dialect::verbose) {
    const DatasetInfo& info = dataset_info(dataset_of<T>());
    url.assign(info.service_root).append(info.entity_set);
  }
  const std::size_t base = url.size();
  w.start_array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (d == Dialect::verbose) {
      url.resize(base);
      odata::append_entity_key(url, rows[i], i);
    }
    if constexpr (std::is_same_v<T, EntityRow>) {
      write_entity(w, rows[i], d, url);
    } else {
      w.start_object();
      write_row_head(w, rows[i], d, url);
      for_each_field(rows[i], [&](std::string_view name, const auto& v) {
        w.key(name);
        if constexpr (is_record_list<std::remove_cvref_t<decltype(v)>>)
          write_list<Sink, T>(w, v, d);
        else
          write_value(w, v, d);
      });
      w.end_object();
    }
  }
  w.end_array();
}

template <class Sink, class T>
void write_feed(Sink& w, const std::vector<T>& rows, const Envelope& e = {}) {
  static const FeedPage kNoPage;
  const FeedPage& page = e.page ? *e.page : kNoPage;
  const std::string count = page.count >= 0 ? std::to_string(page.count) : std::string();
  w.start_object();
  switch (e.dialect) {
    case Dialect::verbose:
      w.key("d");
      w.start_object();
      w.key("results");
      write_rows(w, rows, e.dialect);
      if (!count.empty()) {
        w.key("__count");
        w.string(count);
      }
      if (!page.next_link.empty()) {
        w.key("__next");
        w.string(page.next_link);
      }
      w.end_object();
      break;
    case Dialect::light:
    case Dialect::v4: {
      const bool v4 = e.dialect == Dialect::v4;
      w.key(v4 ? "@odata.context" : "odata.metadata");
      w.string(metadata_url<T>());
      if (!count.empty()) {
        w.key(v4 ? "@odata.count" : "odata.count");
        // v4 writes the count as a number; one beyond Int32 as its text
        // (IEEE754Compatible), as the sinks write no wider integer.
        if (v4 && page.count <= INT32_MAX)
          w.int32(static_cast<int32_t>(page.count));
        else
          w.string(count);
      }
      w.key("value");
      write_rows(w, rows, e.dialect);
      if (!page.next_link.empty()) {
        w.key(v4 ? "@odata.nextLink" : "odata.nextLink");
        w.string(page.next_link);
      }
      break;
    }
  }
  w.end_object();
}

// The map layout of the binary formats that carry member names (msgpack,
// CBOR, BSON): {"value": [rows]}, no metadata, each row a map of the model's
// members as v3 light writes them (Timestamp as ISO 8601 text). Decoders bind
// it with SaxBinder or DomBinder, which read it as a light feed.
template <class Sink, class T>
void write_map_feed(Sink& w, const std::vector<T>& rows) {
  open_object(w, 1);
  w.key("value");
  open_array(w, rows.size());
  for (const T& r : rows) write_record<Sink, T>(w, r, Dialect::light);
  w.end_array();
  w.end_object();
}

}  // namespace wb::json
