// DomBinder: any JSON library's DOM into records, through a small policy.
// Included by codecs/json/feed.hpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codecs/json/dialect.hpp"

namespace wb::json {

// Dom is a policy with a Value type and:
//   static bool is_object(Value); static bool is_array(Value);
//   template <class F> static void members(Value, F f);   // f(string_view key, Value)
//   template <class F> static void elements(Value, F f);  // f(Value)
//   static void store(const FieldSlot&, void* record, Value);  // a scalar:
//     store_string/int/unsigned/double/bool/null by its JSON type
// Value is passed by value (a handle or a reference type).
template <class Dom>
struct DomBinder {
  using Value = typename Dom::Value;
  static constexpr std::string_view kFormat = format_of<Dom>;  // in errors

  // parse_only()'s figure of a parsed document: 1 + the root's members or
  // elements, read in O(1) from every library's tree.
  static std::size_t figure(Value root) { return 1 + Dom::size(root); }

  static void bind_record(Value v, void* record, const RecordTable& t) {
    if (!Dom::is_object(v)) throw RowError(kFormat, "a row is not an object (a map)");
    std::size_t hint = 0;
    int bound = 0;
    Dom::members(v, [&](std::string_view key, Value child) {
      const FieldSlot* s = t.find(key, hint);
      if (!s) return;  // annotations and unknown members
      ++bound;
      if (s->kind != ValueKind::records) return Dom::store(*s, record, child);
      void* vec = static_cast<char*>(record) + s->offset;
      bind_list(child, *s, vec);
    });
    require_members(kFormat, t, bound);
  }

  // A list member: an array, or in v2 {"results": [...]} (other members of
  // that object, such as __metadata, are skipped).
  static void bind_list(Value v, const FieldSlot& s, void* vec) {
    if (Dom::is_object(v) && s.results_object) {
      bool found = false;
      Dom::members(v, [&](std::string_view key, Value child) {
        if (key != "results") return;
        if (found) member_error(kFormat, s, ": a second 'results'");
        found = true;
        bind_list(child, FieldSlot{s.name, s.kind, s.offset, s.append, s.element}, vec);
      });
      if (!found) member_error(kFormat, s, ": an object without 'results'");
      return;
    }
    if (!Dom::is_array(v)) wrong_type(kFormat, s, Dom::is_object(v) ? "an object" : "a scalar");
    Dom::elements(v, [&](Value e) { bind_record(e, s.append(vec), *s.element); });
  }

  // A scalar, object or array as JSON text (a nested entity property value).
  static void render(Value v, entity::JsonText& out) {
    if (Dom::is_object(v)) {
      out.start_object();
      Dom::members(v, [&](std::string_view key, Value child) {
        out.key(key);
        render(child, out);
      });
      return out.end_object();
    }
    if (Dom::is_array(v)) {
      out.start_array();
      Dom::elements(v, [&](Value e) { render(e, out); });
      return out.end_array();
    }
    EntityProperty scalar;
    Dom::store(property_slot(), &scalar, v);
    out.property(scalar);
  }

  static void bind_entity(Value v, EntityRow& row, Dialect dialect) {
    if (!Dom::is_object(v)) throw RowError(kFormat, "a row is not an object (a map)");
    std::vector<entity::TypeAnnotation> annotations;
    Dom::members(v, [&](std::string_view key, Value child) {
      if (const std::string_view name = entity::type_annotation_target(key); !name.empty()) {
        static const FieldSlot type_slot{"@odata.type", ValueKind::string, 0, nullptr, nullptr};
        auto& a = annotations.emplace_back(entity::TypeAnnotation{std::string(name), {}});
        return Dom::store(type_slot, &a.type, child);
      }
      if (entity::is_annotation(key)) return;
      EntityProperty& p = row.Properties.emplace_back();
      p.Name.assign(key);
      const bool object = Dom::is_object(child);
      if (!object && !Dom::is_array(child)) return Dom::store(property_slot(), &p, child);
      p.Type = object ? entity::kComplex : entity::kCollection;
      entity::JsonText out(p.Value);
      render(child, out);
    });
    entity::finish_json_row(kFormat, row, annotations, dialect == Dialect::verbose);
  }

  template <class T>
  static void bind_rows(Value array, FeedReader::Member m, FeedReader& feed, std::vector<T>& rows) {
    if (!Dom::is_array(array)) feed.wrong_shape(m);
    const Dialect dialect = feed.start_rows(m);
    const RecordTable& table = dialect_table<T>(dialect);
    Dom::elements(array, [&](Value e) {
      if constexpr (std::is_same_v<T, EntityRow>)
        bind_entity(e, rows.emplace_back(), dialect);
      else
        bind_record(e, &rows.emplace_back(), table);
    });
  }

  // A next link or count member's value.
  static void bind_scalar(Value v, FeedReader::Member m, FeedReader& feed) {
    if (Dom::is_object(v) || Dom::is_array(v)) feed.wrong_shape(m);
    EntityProperty scalar;
    Dom::store(property_slot(), &scalar, v);
    feed.scalar(m, scalar);
  }

  // page: the decoder's (Decoder::page_out()), or nullptr.
  template <class T>
  static void bind_feed(Value root, std::vector<T>& rows, FeedPage* page) {
    using Member = FeedReader::Member;
    if (!Dom::is_object(root)) throw DecodeError(kFormat, "the payload is not an object (a map)");
    FeedReader feed(page);
    Dom::members(root, [&](std::string_view key, Value child) {
      switch (const Member m = feed.root_member(key)) {
        case Member::rows:
          return bind_rows(child, m, feed, rows);
        case Member::verbose:
          if (!Dom::is_object(child)) return bind_rows(child, m, feed, rows);
          return Dom::members(child, [&](std::string_view inner, Value value) {
            switch (const Member n = feed.verbose_member(inner)) {
              case Member::rows:
                return bind_rows(value, n, feed, rows);
              case Member::next_link:
              case Member::count:
                return bind_scalar(value, n, feed);
              default:
                return;
            }
          });
        case Member::next_link:
        case Member::count:
          return bind_scalar(child, m, feed);
        case Member::other:
          return;
      }
    });
    feed.finish();
  }
};

}  // namespace wb::json
