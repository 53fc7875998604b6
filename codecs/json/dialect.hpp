// The OData JSON dialects and their envelopes, read once for every JSON
// library (SaxBinder, DomBinder and simdjson On-Demand's own walk):
//   json          v3 JSON light  {"odata.metadata": ..., "value": [...],
//                                 "odata.count": "N", "odata.nextLink": ...}
//   json-verbose  v2 verbose     {"d": {"results": [...], "__count": "N",
//                                 "__next": ...}}, or v1's {"d": [...]}
//   json-v4       v4             {"@odata.context": ..., "@odata.count": N,
//                                 "value": [...], "@odata.nextLink": ...}
// A decoder tells them apart by the envelope, as a client that asked for
// JSON must: "d" is v2; "value" after an "@odata." annotation is v4; any
// other "value" is v3. The dialect decides the value forms its rows may use
// (dialect_table below).
#pragma once

#include <string_view>

#include "codecs/codec.hpp"
#include "codecs/common/binding.hpp"
#include "codecs/common/entity.hpp"

namespace wb::json {

inline constexpr std::string_view kFormat = "json";

enum class Dialect { verbose, light, v4 };

// T's table in a dialect: v2 rows may give numbers as strings (Edm.Int64 and
// Edm.Decimal always are; SAP Gateway and Olingo write every number but the
// small integers so) and lists as {"results": [...]}; v4 rows may give
// numbers as strings (IEEE754Compatible=true); v3 rows neither.
template <class T>
const RecordTable& dialect_table(Dialect d) {
  static const RecordTable* const tables[] = {&with_json_forms(table_of<T>(), true, true),
                                              &table_of<T>(),
                                              &with_json_forms(table_of<T>(), true, false)};
  return *tables[static_cast<int>(d)];
}

// The members of an envelope, for any binder: which member holds the rows,
// the next link and the count (into the decoder's FeedPage), and which
// dialect the feed is in. Members it does not know are the binder's to skip.
class FeedReader {
 public:
  enum class Member {
    rows,       // "value" (v3, v4) or v2's "results": an array of rows
    verbose,    // "d": v1's array of rows, or v2's object around them
    next_link,  // odata.nextLink, @odata.nextLink, __next
    count,      // odata.count, @odata.count, __count
    other
  };
  explicit FeedReader(FeedPage* page) : page_(page) {}

  // A member of the root object. Throws on a second set of rows.
  Member root_member(std::string_view key);
  // A member of v2's "d" object ("results", "__count", "__next").
  Member verbose_member(std::string_view key);
  // The rows' array of member m opens; returns the feed's dialect.
  Dialect start_rows(Member m);
  // The value of a next_link or count member, as an entity property reads
  // a JSON scalar (a count may be a string or an integer).
  void scalar(Member m, const EntityProperty& value);
  // A member whose value has the wrong JSON type.
  [[noreturn]] void wrong_shape(Member m) const;
  // Throws unless the rows were found.
  void finish() const;
  Dialect dialect() const { return dialect_; }

 private:
  Member rows_member(std::string_view key);
  FeedPage* page_;  // nullptr: the caller does not keep the page
  bool v4_ = false;
  bool seen_rows_ = false;
  bool in_verbose_ = false;
  Dialect dialect_ = Dialect::light;
};

}  // namespace wb::json
