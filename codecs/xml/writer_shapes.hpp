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
// rows; SAP Gateway's OData V2 for atom-v2 (below); DataContractSerializer
// in a SOAP 1.1 envelope for soap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/common/entity.hpp"
#include "codecs/common/odata.hpp"
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
// typed: with m:type on every member but Edm.String (v3). SAP Gateway's v2
// feeds have none (the types are in $metadata); v2 has no collections
// either, so a list member is v3's d:element items without m:type.
template <bool typed = true, class Sink, class T>
void write_atom_properties(Layout<Sink>& w, const T& record) {
  for_each_field(record, [&](std::string_view name, const auto& v) {
    using M = std::remove_cvref_t<decltype(v)>;
    w.open("d", name, kDataNs);
    if constexpr (is_record_list<M>) {
      static const std::string type =
          "Collection(" + std::string(dataset_info(dataset_of<T>()).type_namespace) + "." +
          std::string(Schema<typename M::value_type>::type_name) + ")";
      if (typed) w.sink().attribute("m", "type", kMetadataNs, type);
      for (const auto& item : v) {
        w.open("d", "element", kDataNs);
        write_atom_properties<typed>(w, item);
        w.close();
      }
    } else {
      if constexpr (typed && !edm_type<M>().empty())
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
// round-trips; the payload does not re-expand them into elements. Entity
// rows keep their m:type in v2 too: without $metadata it is their only type.
template <bool typed = true, class Sink>
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

// The feed's paging after its entries: <link rel="next" href="..."/>.
template <class Sink>
void write_next_link(Layout<Sink>& w, const FeedPage& page, bool href_first) {
  if (page.next_link.empty()) return;
  w.open("", "link", kAtomNs);
  if (href_first) w.sink().attribute("", "href", "", page.next_link);
  w.sink().attribute("", "rel", "", "next");
  if (!href_first) w.sink().attribute("", "href", "", page.next_link);
  w.close();
}

// sap: OData V2 as SAP Gateway writes it (the default namespace, m, d, then
// xml:base on the feed; a feed author; entries titled with their key and
// linked as self, without an author; m:properties declaring m and d again;
// no m:type). Otherwise ODataLib 5's V3. Both write $inlinecount's m:count
// after the feed's self link and the next link after the entries.
template <bool sap, class Sink, class T>
void write_atom(Sink& sink, const std::vector<T>& rows, const FeedPage& page) {
  const DatasetInfo& d = dataset_info(dataset_of<T>());
  const std::string set(d.entity_set), root(d.service_root);
  const std::string& type_term = odata::entity_type_name<T>();
  const std::string_view edit_title = d.azure_table ? d.entity_set : Schema<T>::type_name;
  Layout<Sink> w(sink);
  const auto link = [&](std::string_view rel, std::string_view title, std::string_view href) {
    w.open("", "link", kAtomNs);
    if (sap) sink.attribute("", "href", "", href);
    sink.attribute("", "rel", "", rel);
    sink.attribute("", "title", "", title);
    if (!sap) sink.attribute("", "href", "", href);
    w.close();
  };
  const auto author = [&] {
    w.open("", "author", kAtomNs);
    w.leaf("", "name", kAtomNs, "");
    w.close();
  };
  const auto text_title = [&](std::string_view title) {
    w.open("", "title", kAtomNs);
    sink.attribute("", "type", "", "text");
    if (!title.empty()) sink.text(title);
    w.close();
  };
  sink.declaration(false);
  w.open("", "feed", kAtomNs);
  if (!sap) sink.attribute("xml", "base", kXmlNs, root);
  sink.namespace_decl("", kAtomNs);
  sink.namespace_decl(sap ? "m" : "d", sap ? kMetadataNs : kDataNs);
  sink.namespace_decl(sap ? "d" : "m", sap ? kDataNs : kMetadataNs);
  if (sap) sink.attribute("xml", "base", kXmlNs, root);
  w.leaf("", "id", kAtomNs, root + set);
  text_title(set);
  w.leaf("", "updated", kAtomNs, kUpdated);
  if (sap) author();
  link("self", set, set);
  if (page.count >= 0) w.leaf("m", "count", kMetadataNs, std::to_string(page.count));
  std::string href;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const T& r = rows[i];
    href.assign(set);
    odata::append_entity_key(href, r, i);
    w.open("", "entry", kAtomNs);
    if constexpr (std::is_same_v<T, ScienceRow>) {
      char etag[text::kAzureEtagChars];
      sink.attribute("m", "etag", kMetadataNs,
                     std::string_view(etag, text::write_azure_etag(etag, r.Timestamp) - etag));
    }
    w.leaf("", "id", kAtomNs, root + href);
    if (sap) {
      text_title(href);
      w.leaf("", "updated", kAtomNs, kUpdated);
    }
    w.open("", "category", kAtomNs);
    sink.attribute("", "term", "", type_term);
    sink.attribute("", "scheme", "", kSchemeUri);
    w.close();
    link(sap ? "self" : "edit", edit_title, href);
    if (!sap) {
      w.leaf("", "title", kAtomNs, "");
      w.leaf("", "updated", kAtomNs, kUpdated);
      author();
    }
    w.open("", "content", kAtomNs);
    sink.attribute("", "type", "", "application/xml");
    w.open("m", "properties", kMetadataNs);
    if (sap) {
      sink.namespace_decl("m", kMetadataNs);
      sink.namespace_decl("d", kDataNs);
    }
    write_atom_properties<!sap || std::is_same_v<T, EntityRow>>(w, r);
    w.close();
    w.close();
    w.close();
  }
  write_next_link(w, page, sap);
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

// The format descriptors adapters are instantiated with; page: the next
// link and count of Encoder::encode_page().
struct Atom {
  static constexpr std::string_view kFormat = "atom";
  static constexpr bool kEntityRows = true;
  template <class Sink, class T>
  static void write(Sink& s, const std::vector<T>& rows, const FeedPage& page) {
    write_atom<false>(s, rows, page);
  }
};
struct AtomV2 {
  static constexpr std::string_view kFormat = "atom-v2";
  static constexpr bool kEntityRows = true;
  template <class Sink, class T>
  static void write(Sink& s, const std::vector<T>& rows, const FeedPage& page) {
    write_atom<true>(s, rows, page);
  }
};
struct Soap {
  static constexpr std::string_view kFormat = "soap";
  static constexpr bool kEntityRows = false;
  template <class Sink, class T>
  static void write(Sink& s, const std::vector<T>& rows, const FeedPage&) {
    write_soap(s, rows);
  }
};

}  // namespace wb::xml
