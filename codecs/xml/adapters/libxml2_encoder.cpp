// libxml2's xmlTextWriter for atom and soap, streaming straight into the
// caller's string through an xmlOutputBuffer write callback (no intermediate
// xmlBuffer to copy out of).
#include <libxml/xmlwriter.h>

#include <stdexcept>

#include "codecs/registry.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

// The Sink of writer_shapes.hpp over an xmlTextWriter. Namespaces: elements
// and attributes are written with a null namespace URI, and every declaration
// comes from namespace_decl as a plain xmlns attribute, because
// xmlTextWriterStartElementNS/WriteAttributeNS with a URI declare it again on
// every element they write (they do not track the declarations in scope).
class Libxml2Sink {
 public:
  explicit Libxml2Sink(xmlTextWriterPtr w) : w_(w) {}
  void declaration(bool standalone) {
    check(xmlTextWriterStartDocument(w_, "1.0", "utf-8", standalone ? "yes" : nullptr));
  }
  void start(std::string_view prefix, std::string_view local, std::string_view) {
    check(xmlTextWriterStartElementNS(w_, prefix.empty() ? nullptr : z(a_, prefix), z(b_, local),
                                      nullptr));
  }
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    a_.assign(prefix.empty() ? "xmlns" : "xmlns:").append(prefix);
    check(xmlTextWriterWriteAttribute(w_, BAD_CAST a_.c_str(), z(c_, uri)));
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view,
                 std::string_view value) {
    if (prefix.empty())
      check(xmlTextWriterWriteAttribute(w_, z(b_, local), z(c_, value)));
    else
      check(xmlTextWriterWriteAttributeNS(w_, z(a_, prefix), z(b_, local), nullptr, z(c_, value)));
  }
  void text(std::string_view v) { check(xmlTextWriterWriteString(w_, z(c_, v))); }
  void end() { check(xmlTextWriterEndElement(w_)); }

 private:
  // libxml2 wants NUL-terminated strings; the shapes hand out views.
  static const xmlChar* z(std::string& scratch, std::string_view v) {
    scratch.assign(v);
    return BAD_CAST scratch.c_str();
  }
  static void check(int rc) {
    if (rc < 0) throw std::runtime_error("libxml2: xmlTextWriter failed");
  }
  xmlTextWriterPtr w_;
  std::string a_, b_, c_;
};

// xmlOutputWriteCallback: appends to the std::string in context. Nothing may
// throw through libxml2's C frames, so an allocation failure becomes -1.
int append_to_string(void* context, const char* buffer, int len) {
  try {
    static_cast<std::string*>(context)->append(buffer, static_cast<std::size_t>(len));
    return len;
  } catch (...) {
    return -1;
  }
}

template <class Shape>
class Libxml2Encoder : public EncoderFor<Libxml2Encoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  Libxml2Encoder() { libxml2::prepare_thread(); }

  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    libxml2::prepare_thread();
    out.clear();
    // A text writer cannot be reset, so one is made per call (the library's
    // cost); it owns and closes the output buffer.
    xmlOutputBufferPtr buffer = xmlOutputBufferCreateIO(append_to_string, nullptr, &out, nullptr);
    if (!buffer) throw std::bad_alloc();
    const WriterPtr writer(xmlNewTextWriter(buffer));
    if (!writer) {
      xmlOutputBufferClose(buffer);
      throw std::bad_alloc();
    }
    Libxml2Sink sink(writer.get());
    Shape::write(sink, rows, this->page());
    // Flush, not xmlTextWriterEndDocument: the shapes closed every element,
    // and EndDocument would append a newline the reference does not write.
    if (xmlTextWriterFlush(writer.get()) < 0)
      throw std::runtime_error("libxml2: writing the output failed");
  }

 private:
  struct FreeWriter {
    void operator()(xmlTextWriterPtr w) const { xmlFreeTextWriter(w); }
  };
  using WriterPtr = std::unique_ptr<xmlTextWriter, FreeWriter>;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, libxml2, wb::xml::Libxml2Encoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, libxml2, wb::xml::Libxml2Encoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, libxml2, wb::xml::Libxml2Encoder<wb::xml::Soap>)
