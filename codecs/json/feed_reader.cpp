// FeedReader: the envelope members of the three OData JSON dialects.
#include "codecs/json/dialect.hpp"

#include "generators/text.hpp"

namespace wb::json {

FeedReader::Member FeedReader::rows_member(std::string_view) {
  if (seen_rows_) throw DecodeError(kFormat, "a second set of rows ('value', 'd' or 'results')");
  return Member::rows;
}

FeedReader::Member FeedReader::root_member(std::string_view key) {
  if (key == "value") return rows_member(key);
  if (key == "d") {
    rows_member(key);
    return Member::verbose;
  }
  if (key == "odata.nextLink" || key == "@odata.nextLink") return Member::next_link;
  if (key == "odata.count" || key == "@odata.count") return Member::count;
  // v4's context URL or any other v4 control annotation before the rows.
  if (key.starts_with("@odata.")) v4_ = true;
  return Member::other;
}

FeedReader::Member FeedReader::verbose_member(std::string_view key) {
  in_verbose_ = true;
  if (key == "results") return rows_member(key);
  if (key == "__next") return Member::next_link;
  if (key == "__count") return Member::count;
  return Member::other;
}

Dialect FeedReader::start_rows(Member m) {
  seen_rows_ = true;
  dialect_ = m == Member::verbose || in_verbose_ ? Dialect::verbose
             : v4_                               ? Dialect::v4
                                                 : Dialect::light;
  return dialect_;
}

void FeedReader::scalar(Member m, const EntityProperty& value) {
  if (m == Member::next_link) {
    if (value.Type != entity::kString) wrong_shape(m);
    if (page_) page_->next_link = value.Value;
    return;
  }
  const auto count = text::parse_int64(value.Value);
  const bool integer =
      value.Type == entity::kInt32 || value.Type == entity::kInt64 || value.Type == entity::kString;
  if (!integer || !count || *count < 0) wrong_shape(m);
  if (page_) page_->count = *count;
}

void FeedReader::wrong_shape(Member m) const {
  switch (m) {
    case Member::rows:
      throw DecodeError(kFormat,
                        in_verbose_ ? "'results' is not an array" : "'value' is not an array");
    case Member::verbose:
      throw DecodeError(kFormat, "'d' is neither an array nor an object");
    case Member::next_link:
      throw DecodeError(kFormat, "the next link is not a string");
    case Member::count:
      throw DecodeError(kFormat, "the count is not a non-negative integer");
    case Member::other:
      break;
  }
  throw DecodeError(kFormat, "unexpected value in an OData feed");
}

void FeedReader::finish() const {
  if (!seen_rows_) throw DecodeError(kFormat, "no 'value' array and no 'd': not an OData feed");
}

}  // namespace wb::json
