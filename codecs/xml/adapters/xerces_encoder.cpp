// Xerces-C writer: the document is built as a DOM (createElementNS,
// setAttributeNS, createTextNode) and written by a DOMLSSerializer into a
// MemBufFormatTarget. Serializer, output and target are reused; the document
// is made and released per call (a Xerces document cannot be reset cheaply).
#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/MemBufFormatTarget.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>
#include <stdexcept>

#include "codecs/registry.hpp"
#include "codecs/xml/adapters/xerces_common.hpp"
#include "codecs/xml/writer_shapes.hpp"

namespace wb::xml {
namespace {

using namespace xercesc;

constexpr XMLCh kXmlnsUri[] = u"http://www.w3.org/2000/xmlns/";

// Xerces objects are freed with release(), not delete.
struct Release {
  template <class P>
  void operator()(P* p) const {
    p->release();
  }
};

class XercesSink {
 public:
  explicit XercesSink(DOMDocument& doc) : doc_(doc), open_(&doc) {}
  bool declared() const { return declared_; }

  void declaration(bool standalone) {
    declared_ = true;
    doc_.setXmlStandalone(standalone);
  }
  void start(std::string_view prefix, std::string_view local, std::string_view ns) {
    open_ = open_->appendChild(doc_.createElementNS(uri_(ns), name_.qname(prefix, local)));
  }
  // An attribute in the xmlns namespace: xmlns:prefix, or xmlns for the
  // default namespace. The serializer's namespace fixup sees these as the
  // elements' bindings and adds no declarations of its own.
  void namespace_decl(std::string_view prefix, std::string_view uri) {
    const XMLCh* name =
        prefix.empty() ? name_(std::string_view("xmlns")) : name_.qname("xmlns", prefix);
    element().setAttributeNS(kXmlnsUri, name, value_(uri));
  }
  void attribute(std::string_view prefix, std::string_view local, std::string_view ns,
                 std::string_view value) {
    element().setAttributeNS(prefix.empty() ? nullptr : uri_(ns), name_.qname(prefix, local),
                             value_(value));
  }
  void text(std::string_view v) { open_->appendChild(doc_.createTextNode(value_(v))); }
  void end() { open_ = open_->getParentNode(); }

 private:
  DOMElement& element() { return *static_cast<DOMElement*>(open_); }

  DOMDocument& doc_;
  DOMNode* open_;  // the innermost open element, or the document
  bool declared_ = false;
  xerces::XmlChBuffer uri_, name_, value_;
};

template <class Shape>
class XercesEncoder : public EncoderFor<XercesEncoder<Shape>> {
 public:
  static constexpr bool kEntityRows = Shape::kEntityRows;
  XercesEncoder()
      : impl_(DOMImplementation::getImplementation()),
        serializer_(impl_->createLSSerializer()),
        output_(impl_->createLSOutput()) {
    output_->setByteStream(&target_);
    output_->setEncoding(u"UTF-8");
  }

  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    const std::unique_ptr<DOMDocument, Release> doc(impl_->createDocument());
    XercesSink sink(*doc);
    Shape::write(sink, rows, this->page());
    // soap has no declaration: the driver simply does not ask for one.
    serializer_->getDomConfig()->setParameter(XMLUni::fgDOMXMLDeclaration, sink.declared());
    target_.reset();
    if (!serializer_->write(doc.get(), output_.get()))
      throw std::runtime_error("xerces: DOMLSSerializer::write failed");
    out.assign(reinterpret_cast<const char*>(target_.getRawBuffer()), target_.getLen());
  }

 private:
  xerces::Initialized init_;
  DOMImplementation* impl_;  // owned by Xerces
  std::unique_ptr<DOMLSSerializer, Release> serializer_;
  std::unique_ptr<DOMLSOutput, Release> output_;
  MemBufFormatTarget target_;
};

}  // namespace
}  // namespace wb::xml

WB_DEFINE_ENCODER(atom, xerces, wb::xml::XercesEncoder<wb::xml::Atom>)
WB_DEFINE_ENCODER(atom_v2, xerces, wb::xml::XercesEncoder<wb::xml::AtomV2>)
WB_DEFINE_ENCODER(soap, xerces, wb::xml::XercesEncoder<wb::xml::Soap>)
