// The hand-written reference writer for atom and soap: one growing buffer, no
// DOM, no library. It marks the floor for what an XML encoder can cost.
#include <vector>

#include "codecs/registry.hpp"
#include "codecs/xml/escape.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

class ReferenceSink {
 public:
  explicit ReferenceSink(std::string& out) : out_(out) {}
  void declaration(bool standalone) {
    out_ += standalone ? R"(<?xml version="1.0" encoding="utf-8" standalone="yes"?>)"
                       : R"(<?xml version="1.0" encoding="utf-8"?>)";
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    close_start_tag();
    out_ += '<';
    append_qname(prefix, local);
    names_.push_back({prefix, local});
    tag_open_ = true;
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    out_ += prefix.empty() ? " xmlns" : " xmlns:";
    out_ += prefix;
    append_value(uri);
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    out_ += ' ';
    append_qname(prefix, local);
    append_value(value);
  }
  void text(std::string_view v) {
    close_start_tag();
    append_escaped(out_, v, false);
  }
  void end() {
    const auto [prefix, local] = names_.back();
    names_.pop_back();
    if (tag_open_) {
      out_ += " />";  // .NET XmlWriter's empty element, with the space
      tag_open_ = false;
      return;
    }
    out_ += "</";
    append_qname(prefix, local);
    out_ += '>';
  }

 private:
  void append_qname(std::string_view prefix, std::string_view local) {
    if (!prefix.empty()) out_.append(prefix).append(1, ':');
    out_ += local;
  }
  void append_value(std::string_view v) {
    out_ += "=\"";
    append_escaped(out_, v, true);
    out_ += '"';
  }
  void close_start_tag() {
    if (tag_open_) out_ += '>';
    tag_open_ = false;
  }
  std::string& out_;
  std::vector<std::pair<std::string_view, std::string_view>> names_;
  bool tag_open_ = false;
};

template <class Shape>
class ReferenceEncoder : public EncoderFor<ReferenceEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    out.clear();
    ReferenceSink sink(out);
    Shape::write(sink, rows, this->page());
  }
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, reference, wb::xml::ReferenceEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, reference, wb::xml::ReferenceEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, reference, wb::xml::ReferenceEncoder<wb::xml::Soap>)
