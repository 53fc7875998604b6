// The WCF JSON <-> XML infoset mapping (JsonReaderWriterFactory), written once
// for every JSON and XML library (section 6 of corpus/real/FORMAT-NOTES.md in
// the real-payload corpus, WIREBENCH_CORPUS):
//   JsonToInfoset<Sink>     JSON events -> infoset elements in an XML Sink
//   write_infoset(sink, r)  records -> infoset, as DataContractJsonSerializer
//                           hands them to its XML->JSON writer
//   infoset_to_json(...)    an infoset DOM -> JSON events (the XML->JSON writer)
// A Sink is the writer interface of codecs/xml/writer_shapes.hpp: start(prefix,
// local, uri), namespace_decl(prefix, uri), attribute(prefix, local, uri, v),
// text(v), end(). A JSON target takes start_object/end_object/start_array/
// end_array/key/string/number(text)/boolean/null.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/xml/escape.hpp"
#include "codecs/xml/writer_shapes.hpp"
#include "generators/text.hpp"

namespace wb::wcfjson {

inline constexpr std::string_view kFormat = "wcfjson";
// The infoset is a tree every XML library builds recursively somewhere (and
// walk_dom is recursive): hostile nesting stops here, with an error.
inline constexpr std::size_t kMaxDepth = 512;

// XmlJsonReader.SetJsonNameWithMapping: a key is an element name only when it
// is an ASCII XML name without ':'; anything else (any byte >= 0x80 included)
// becomes <a:item xmlns:a="item" item="{key}">.
inline bool is_xml_name(std::string_view key) {
  auto start = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (key.empty() || !start(key[0])) return false;
  for (char c : key.substr(1))
    if (!start(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
  return true;
}

// JSON events -> Sink. Keys are copied: every parser's key buffer is gone by
// the time the value (which decides the element's type) arrives.
template <class Sink>
class JsonToInfoset {
 public:
  explicit JsonToInfoset(Sink& sink) : s_(sink) { stack_.reserve(16); }
  void start_object() {
    open("object");
    stack_.push_back({false, true, false});
  }
  void end_object() { close_container(); }
  void start_array() {
    open("array");
    stack_.push_back({true, false, false});
  }
  void end_array() { close_container(); }
  void key(std::string_view k) {
    Frame& f = stack_.back();
    // "__type" is a type hint (an attribute) only as the first member.
    f.hint = f.first && k == "__type";
    f.first = false;
    key_.assign(k);
  }
  void string(std::string_view v) {
    if (!stack_.empty() && stack_.back().hint) {
      stack_.back().hint = false;
      return s_.attribute("", "__type", "", v);
    }
    leaf("string", v);
  }
  void number(std::string_view text) { leaf("number", text); }  // kept as written
  void boolean(bool v) { leaf("boolean", v ? "true" : "false"); }
  void null() { leaf("null", {}); }
  void finish() const {
    if (!done_ || !stack_.empty()) throw DecodeError(kFormat, "incomplete JSON value");
  }
  // Elements opened so far: one per JSON value (parse_only()'s figure).
  std::size_t elements() const { return elements_; }

 private:
  std::size_t elements_ = 0;
  struct Frame {
    bool array;
    bool first;  // object: no member yet
    bool hint;   // object: the last key was a leading "__type"
  };
  void open(std::string_view type) {
    ++elements_;
    if (stack_.empty()) {
      if (done_) throw DecodeError(kFormat, "a second JSON value after the root");
      s_.start("", "root", "");
    } else if (stack_.size() >= kMaxDepth) {
      throw DecodeError(kFormat, "nesting deeper than " + std::to_string(kMaxDepth));
    } else if (Frame& f = stack_.back(); f.array) {
      s_.start("", "item", "");
    } else {
      f.hint = false;  // a non-string "__type" is an ordinary member
      if (is_xml_name(key_)) {
        s_.start("", key_, "");
      } else {
        s_.start("a", "item", "item");
        s_.namespace_decl("a", "item");
        s_.attribute("", "item", "", key_);
      }
    }
    s_.attribute("", "type", "", type);
  }
  void leaf(std::string_view type, std::string_view text) {
    open(type);
    if (!text.empty()) s_.text(text);
    close();
  }
  void close() {
    s_.end();
    done_ = stack_.empty();
  }
  void close_container() {
    stack_.pop_back();
    close();
  }

  Sink& s_;
  std::vector<Frame> stack_;
  std::string key_;
  bool done_ = false;
};

// ------------------------------------------------------------ records -> infoset
template <class Sink>
void infoset_leaf(Sink& s, std::string_view name, std::string_view type, std::string_view text) {
  s.start("", name, "");
  s.attribute("", "type", "", type);
  if (!text.empty()) s.text(text);
  s.end();
}

// DataContractJsonSerializer: members in ordinal order, DateTime as
// "/Date(ms)/" (the JSON writer adds the "\/" escapes), numbers shortest.
template <class Sink, class T>
void write_infoset_object(Sink& s, std::string_view name, const T& record) {
  static constexpr auto kOrder = alphabetical_order<T>();
  s.start("", name, "");
  s.attribute("", "type", "", "object");
  for (std::size_t index : kOrder) {
    visit_field_at(record, index, [&](std::string_view member, const auto& v) {
      using M = std::remove_cvref_t<decltype(v)>;
      if constexpr (is_record_list<M>) {
        s.start("", member, "");
        s.attribute("", "type", "", "array");
        for (const auto& item : v) write_infoset_object(s, "item", item);
        s.end();
      } else if constexpr (std::is_same_v<M, DateTime>) {
        infoset_leaf(s, member, "string", text::wcf_date_string(v));
      } else if constexpr (std::is_same_v<M, std::string>) {
        infoset_leaf(s, member, "string", v);
      } else {
        xml::ValueText t;
        infoset_leaf(s, member, "number", t(v));
      }
    });
  }
  s.end();
}

template <class Sink, class T>
void write_infoset(Sink& s, const std::vector<T>& rows) {
  s.start("", "root", "");
  s.attribute("", "type", "", "array");
  for (const T& r : rows) write_infoset_object(s, "item", r);
  s.end();
}

// ------------------------------------------------------------ infoset -> JSON
enum class JsonType { string, number, boolean, null, object, array };

inline JsonType json_type(std::string_view type) {
  if (type == "object") return JsonType::object;
  if (type == "array") return JsonType::array;
  if (type == "number") return JsonType::number;
  if (type == "boolean") return JsonType::boolean;
  if (type == "null") return JsonType::null;
  return JsonType::string;  // also the meaning of no type attribute
}

// Walks an infoset DOM with a walk_dom policy (codecs/xml/binder.hpp) and
// writes the JSON value of element to out; with_key: element is an object
// member, so its name (or mapped item="...") is written first.
template <class Dom, class Out>
void infoset_to_json(Dom& dom, typename Dom::Node element, Out& out, bool with_key,
                     std::string& scratch) {
  JsonType type = JsonType::string;
  bool mapped = false, hinted = false;
  std::string mapped_key, hint;  // rare: only mapped names and __type allocate
  dom.attributes(element, [&](std::string_view uri, std::string_view local, std::string_view v) {
    if (!uri.empty()) return;
    if (local == "type") {
      type = json_type(v);
    } else if (local == "item") {
      mapped = true;
      mapped_key.assign(v);
    } else if (local == "__type") {
      hinted = true;
      hint.assign(v);
    }
  });
  if (with_key) out.key(mapped && dom.uri(element) == "item" ? mapped_key : dom.local(element));
  switch (type) {
    case JsonType::object:
    case JsonType::array: {
      const bool object = type == JsonType::object;
      object ? out.start_object() : out.start_array();
      if (hinted && object) out.key("__type"), out.string(hint);
      for (auto c = dom.first_child(element); c; c = dom.next_sibling(c))
        if (dom.is_element(c)) infoset_to_json(dom, c, out, object, scratch);
      object ? out.end_object() : out.end_array();
      return;
    }
    case JsonType::null:
      return out.null();
    default:
      break;
  }
  // The element's text: one text node in every infoset we build.
  std::string_view text;
  int pieces = 0;
  for (auto c = dom.first_child(element); c; c = dom.next_sibling(c)) {
    if (!dom.is_text(c)) continue;
    if (++pieces == 1) {
      text = dom.value(c);
      continue;
    }
    if (pieces == 2) scratch.assign(text);
    scratch.append(dom.value(c));
    text = scratch;
  }
  if (type == JsonType::number) return out.number(text);
  if (type == JsonType::boolean) return out.boolean(text == "true");
  out.string(text);
}

// infoset_to_json's target over a JSON value builder (json::BoostjsonBuilder,
// json::NlohmannBuilder). A value holds no number text, so the text becomes
// an integer or a double first (exact: both write the shortest round-trip form).
template <class Builder>
class NumberTextTo : public Builder {
 public:
  using Builder::number;
  void number(std::string_view text) {
    if (text.find_first_of(".eE") == std::string_view::npos)
      if (auto i = text::parse_int64(text)) return Builder::integer(*i);
    const auto d = text::parse_double(text);
    if (!d)
      throw std::runtime_error(std::string(Builder::kLibrary) + ": '" + std::string(text) +
                               "' is not a number");
    Builder::number(*d);
  }
};

// WCF's XML->JSON writer escapes '/' as "\/". In JSON text a '/' can only be
// inside a string, and no writer escapes it, so every '/' becomes "\/".
inline void append_escaping_solidus(std::string& out, std::string_view json) {
  std::size_t run = 0;
  for (std::size_t at = json.find('/'); at != std::string_view::npos; at = json.find('/', at + 1)) {
    out.append(json.data() + run, at - run).append("\\/");
    run = at + 1;
  }
  out.append(json.data() + run, json.size() - run);
}

// ------------------------------------------------------------ infoset as XML text
// The infoset serialised as XML (no declaration): what infoset_bytes counts
// and `wirebench infoset` prints. indent: two spaces per level and newlines.
class XmlTextSink {
 public:
  explicit XmlTextSink(std::string& out, bool indent = false) : out_(out), indent_(indent) {}
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    close_tag(true);
    newline();
    out_ += '<';
    qname(prefix, local);
    // Copied: a key's buffer is reused before its element ends.
    if (depth_ == names_.size()) names_.emplace_back();
    names_[depth_++].assign(out_, out_.size() - prefix.size() - local.size() - !prefix.empty());
    open_ = true;
    children_ = false;
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    out_.append(" xmlns:").append(prefix).append("=\"");
    xml::append_escaped(out_, uri, true);
    out_ += '"';
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    out_ += ' ';
    qname(prefix, local);
    out_ += "=\"";
    xml::append_escaped(out_, value, true);
    out_ += '"';
  }
  void text(std::string_view v) {
    close_tag(false);
    xml::append_escaped(out_, v, false);
  }
  void end() {
    const std::string& name = names_[--depth_];
    if (open_) {
      out_ += "/>";
      open_ = false;
    } else {
      if (children_) newline();
      out_.append("</").append(name).append(1, '>');
    }
    children_ = true;
  }

 private:
  void qname(std::string_view prefix, std::string_view local) {
    if (!prefix.empty()) out_.append(prefix).append(1, ':');
    out_ += local;
  }
  void close_tag(bool child) {
    if (open_) out_ += '>';
    open_ = false;
    children_ = child;
  }
  void newline() {
    if (!indent_ || out_.empty()) return;
    out_ += '\n';
    out_.append(2 * depth_, ' ');
  }
  std::string& out_;
  bool indent_;
  bool open_ = false;
  bool children_ = false;           // the innermost open element has element children
  std::vector<std::string> names_;  // qnames of the open elements, storage reused
  std::size_t depth_ = 0;
};

// Replays an infoset DOM (walk_dom policy) into a Sink: how an XML library's
// infoset is serialised the same way for every library (infoset_bytes).
template <class Dom, class Sink>
void copy_infoset(Dom& dom, typename Dom::Node element, Sink& sink) {
  if (dom.uri(element) == "item") {  // the mapping's only namespace
    sink.start("a", "item", "item");
    sink.namespace_decl("a", "item");
  } else {
    sink.start("", dom.local(element), "");
  }
  dom.attributes(element, [&](std::string_view, std::string_view local, std::string_view v) {
    sink.attribute("", local, "", v);
  });
  for (auto c = dom.first_child(element); c; c = dom.next_sibling(c)) {
    if (dom.is_element(c))
      copy_infoset(dom, c, sink);
    else if (dom.is_text(c))
      sink.text(dom.value(c));
  }
  sink.end();
}

}  // namespace wb::wcfjson
