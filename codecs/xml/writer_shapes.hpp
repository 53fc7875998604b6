// The atom and soap documents, written once for every XML library. A Sink is
// the library's writer; the driver decides the bytes' shape:
//   declaration(bool standalone)          <?xml version="1.0" encoding="utf-8"[ standalone="yes"]?>
//   start(prefix, local, ns_uri)          an element (prefix "" = default namespace)
//   namespace_decl(prefix, uri)           xmlns[:prefix]="uri" on the open element
//   attribute(prefix, local, ns_uri, v)   prefix "" = no namespace
//   text(v)                               character data (the sink escapes it)
//   end()                                 closes the innermost element
// Shapes follow the producers' as the real-payload corpus shows them
// (corpus/real/FORMAT-NOTES.md under WIREBENCH_CORPUS): ODataLib 5 (WCF Data
// Services 5 / OData V3, which collections of complex types need; one line,
// no indentation) for every atom feed, with Azure Table's m:etag on science
// rows; DataContractSerializer in a SOAP 1.1 envelope for soap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codecs/common/entity.hpp"
#include "codecs/xml/vocabulary.hpp"
#include "generators/datasets.hpp"
#include "generators/text.hpp"

namespace wb::xml {

// Every <updated> in a response carries the response time; ours is fixed so
// that payloads are deterministic.
inline constexpr std::string_view kUpdated = "2026-01-01T00:00:00Z";

// Tracks nothing but saves repeating open/text/close at every call site.
template <class Sink>
class Layout {
 public:
  explicit Layout(Sink& s) : s_(s) {}
  void open(std::string_view prefix, std::string_view local, std::string_view ns) {
    s_.start(prefix, local, ns);
  }
  void close() { s_.end(); }
  // <prefix:local>text</prefix:local>
  void leaf(std::string_view prefix, std::string_view local, std::string_view ns,
            std::string_view value) {
    s_.start(prefix, local, ns);
    if (!value.empty()) s_.text(value);
    s_.end();
  }
  Sink& sink() { return s_; }

 private:
  Sink& s_;
};

// Scalar member text: the lexical forms every writer shares.
struct ValueText {
  char buf[text::kMaxNumberChars + text::kDateTimeChars];
  std::string_view operator()(int32_t v) { return {buf, size(text::write_int(buf, v))}; }
  std::string_view operator()(double v) { return {buf, size(text::write_double(buf, v))}; }
  std::string_view operator()(DateTime v) { return {buf, size(text::write_datetime(buf, v))}; }
  std::string_view operator()(const std::string& v) { return v; }
  std::size_t size(const char* end) const { return static_cast<std::size_t>(end - buf); }
};

template <class M>
constexpr std::string_view edm_type() {
  if constexpr (std::is_same_v<M, int32_t>)
    return "Edm.Int32";
  else if constexpr (std::is_same_v<M, double>)
    return "Edm.Double";
  else if constexpr (std::is_same_v<M, DateTime>)
    return "Edm.DateTime";
  else
    return "";  // Edm.String carries no m:type
}

// ------------------------------------------------------------------ atom
template <class Sink, class T>
void write_atom_properties(Layout<Sink>& w, const T& record) {
  for_each_field(record, [&](std::string_view name, const auto& v) {
    using M = std::remove_cvref_t<decltype(v)>;
    w.open("d", name, kDataNs);
    if constexpr (is_record_list<M>) {
      static const std::string type =
          "Collection(" + std::string(dataset_info(dataset_of<T>()).type_namespace) + "." +
          std::string(Schema<typename M::value_type>::type_name) + ")";
      w.sink().attribute("m", "type", kMetadataNs, type);
      for (const auto& item : v) {
        w.open("d", "element", kDataNs);
        write_atom_properties(w, item);
        w.close();
      }
    } else {
      if constexpr (!edm_type<M>().empty())
        w.sink().attribute("m", "type", kMetadataNs, edm_type<M>());
      ValueText t;
      if (const std::string_view s = t(v); !s.empty()) w.sink().text(s);
    }
    w.close();
  });
}

// Entity rows: properties in order, m:type unless Edm.String, "Null(T)" as
// m:null="true" (with m:type T unless Edm.String). Nested values are JSON
// text (codecs/common/entity.hpp) and are written as that text: the row
// round-trips; the payload does not re-expand them into elements.
template <class Sink>
void write_atom_properties(Layout<Sink>& w, const EntityRow& row) {
  for (const EntityProperty& p : row.Properties) {
    const std::string_view null_of = entity::null_of(p.Type);
    const std::string_view type = null_of.empty() ? std::string_view(p.Type) : null_of;
    w.open("d", p.Name, kDataNs);
    if (type != entity::kString) w.sink().attribute("m", "type", kMetadataNs, type);
    if (!null_of.empty()) w.sink().attribute("m", "null", kMetadataNs, "true");
    if (!p.Value.empty()) w.sink().text(p.Value);
    w.close();
  }
}

// Appends the entity key as it appears in ids and edit links: "(42)" or
// "(PartitionKey='p',RowKey='r')". Appends into a reused buffer: no
// allocation per row in the encode loop.
template <class T>
void append_atom_key(std::string& out, const T& r, std::size_t index) {
  if constexpr (std::is_same_v<T, ScienceRow>) {
    out.append("(PartitionKey='").append(r.PartitionKey).append("',RowKey='");
    out.append(r.RowKey).append("')");
  } else {
    char buf[text::kMaxNumberChars];
    int64_t key = static_cast<int64_t>(index) + 1;
    if constexpr (std::is_same_v<T, Message>) key = r.ID;
    out.append(1, '(').append(buf, text::write_int(buf, key)).append(1, ')');
  }
}

template <class Sink, class T>
void write_atom(Sink& sink, const std::vector<T>& rows) {
  const DatasetInfo& d = dataset_info(dataset_of<T>());
  const std::string set(d.entity_set), root(d.service_root);
  // Azure's category term is {account}.{table}; WCF's is {namespace}.{type}.
  const std::string type_term = std::string(d.type_namespace) + "." +
                                std::string(d.azure_table ? d.entity_set : Schema<T>::type_name);
  const std::string_view edit_title = d.azure_table ? d.entity_set : Schema<T>::type_name;
  Layout<Sink> w(sink);
  sink.declaration(false);
  w.open("", "feed", kAtomNs);
  sink.attribute("xml", "base", kXmlNs, root);
  sink.namespace_decl("", kAtomNs);
  sink.namespace_decl("d", kDataNs);
  sink.namespace_decl("m", kMetadataNs);
  w.leaf("", "id", kAtomNs, root + set);
  w.open("", "title", kAtomNs);
  sink.attribute("", "type", "", "text");
  sink.text(set);
  w.close();
  w.leaf("", "updated", kAtomNs, kUpdated);
  w.open("", "link", kAtomNs);
  sink.attribute("", "rel", "", "self");
  sink.attribute("", "title", "", set);
  sink.attribute("", "href", "", set);
  w.close();
  std::string href;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const T& r = rows[i];
    href.assign(set);
    append_atom_key(href, r, i);
    w.open("", "entry", kAtomNs);
    if constexpr (std::is_same_v<T, ScienceRow>) {
      char etag[text::kAzureEtagChars];
      sink.attribute("m", "etag", kMetadataNs,
                     std::string_view(etag, text::write_azure_etag(etag, r.Timestamp) - etag));
    }
    w.leaf("", "id", kAtomNs, root + href);
    w.open("", "category", kAtomNs);
    sink.attribute("", "term", "", type_term);
    sink.attribute("", "scheme", "", kSchemeUri);
    w.close();
    w.open("", "link", kAtomNs);
    sink.attribute("", "rel", "", "edit");
    sink.attribute("", "title", "", edit_title);
    sink.attribute("", "href", "", href);
    w.close();
    w.leaf("", "title", kAtomNs, "");
    w.leaf("", "updated", kAtomNs, kUpdated);
    w.open("", "author", kAtomNs);
    w.leaf("", "name", kAtomNs, "");
    w.close();
    w.open("", "content", kAtomNs);
    sink.attribute("", "type", "", "application/xml");
    w.open("m", "properties", kMetadataNs);
    write_atom_properties(w, r);
    w.close();
    w.close();
    w.close();
  }
  w.close();
}

// ------------------------------------------------------------------ soap
template <class Sink, class T>
void write_soap_members(Sink& s, const T& record, std::string_view ns) {
  static constexpr auto kOrder = alphabetical_order<T>();
  for (std::size_t index : kOrder) {
    visit_field_at(record, index, [&](std::string_view name, const auto& v) {
      using M = std::remove_cvref_t<decltype(v)>;
      s.start("a", name, ns);
      if constexpr (is_record_list<M>) {
        for (const auto& item : v) {
          s.start("a", Schema<typename M::value_type>::type_name, ns);
          write_soap_members(s, item, ns);
          s.end();
        }
      } else {
        ValueText t;
        if (const std::string_view text = t(v); !text.empty()) s.text(text);
      }
      s.end();
    });
  }
}

template <class Sink, class T>
void write_soap(Sink& s, const std::vector<T>& rows) {
  const DatasetInfo& d = dataset_info(dataset_of<T>());
  const std::string& ns = data_contract_ns(dataset_of<T>());
  static const std::string response = std::string(d.soap_operation) + "Response";
  static const std::string result = std::string(d.soap_operation) + "Result";
  s.start("s", "Envelope", kSoapEnvNs);
  s.namespace_decl("s", kSoapEnvNs);
  s.start("s", "Body", kSoapEnvNs);
  s.start("", response, kServiceNs);
  s.namespace_decl("", kServiceNs);
  s.start("", result, kServiceNs);
  s.namespace_decl("a", ns);
  s.namespace_decl("i", kXsiNs);
  for (const T& r : rows) {
    s.start("a", Schema<T>::type_name, ns);
    write_soap_members(s, r, ns);
    s.end();
  }
  s.end();
  s.end();
  s.end();
  s.end();
}

// The format descriptors adapters are instantiated with.
struct Atom {
  static constexpr std::string_view kFormat = "atom";
  template <class Sink, class T>
  static void write(Sink& s, const std::vector<T>& rows) {
    write_atom(s, rows);
  }
};
struct Soap {
  static constexpr std::string_view kFormat = "soap";
  template <class Sink, class T>
  static void write(Sink& s, const std::vector<T>& rows) {
    write_soap(s, rows);
  }
};

}  // namespace wb::xml
