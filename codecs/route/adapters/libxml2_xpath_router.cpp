// libxml2 XPath: xmlReadMemory's DOM (through the decoders' reused parser
// context), then a compiled expression. Unlike pugixml, libxml2's XPath binds
// prefixes: the key's namespace is registered as "k" and selected as k:Name.
// One XPath context and one compiled expression per rule, reused across calls.
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include <memory>
#include <stdexcept>

#include "codecs/registry.hpp"
#include "codecs/router.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/libxml2_common.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::route {
namespace {

constexpr std::string_view kLibrary = token::router_soap_libxml2_xpath;

const xmlChar* xml_chars(const std::string& s) {
  return reinterpret_cast<const xmlChar*>(s.c_str());
}

struct FreeDoc {
  void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
};
struct FreeContext {
  void operator()(xmlXPathContextPtr c) const { xmlXPathFreeContext(c); }
};
struct FreeCompiled {
  void operator()(xmlXPathCompExprPtr c) const { xmlXPathFreeCompExpr(c); }
};

class Libxml2XpathRouter : public Router {
 public:
  Libxml2XpathRouter() : xpath_(xmlXPathNewContext(nullptr)) {
    if (!xpath_) throw std::bad_alloc();
  }

  bool route(std::string_view payload, const RouteRule& rule) override {
    prepare(rule);
    const auto [xml, bom] = xml::open_document(kLibrary, payload);
    std::unique_ptr<xmlDoc, FreeDoc> doc(ctxt_.parse(kLibrary, xml));
    ctxt_.check(kLibrary, bom);
    if (!doc) ctxt_.raise(kLibrary, bom);
    xpath_->doc = doc.get();
    xpath_->node = reinterpret_cast<xmlNodePtr>(doc.get());
    const int match = xmlXPathCompiledEvalToBoolean(compiled_.get(), xpath_.get());
    xpath_->doc = nullptr;
    xpath_->node = nullptr;
    if (match < 0) throw DecodeError(kLibrary, "XPath evaluation failed");
    return match == 1;
  }

 private:
  // Recompiles only when the rule's namespace or name changes; the value is a
  // variable.
  void prepare(const RouteRule& rule) {
    if (!compiled_ || rule.ns != ns_ || rule.local != local_) {
      const std::string expr = "string((//k:" + rule.local + ")[1]) = $value";
      compiled_.reset(xmlXPathCompile(xml_chars(expr)));
      if (!compiled_) throw std::invalid_argument("libxml2-xpath: cannot compile " + expr);
      if (xmlXPathRegisterNs(xpath_.get(), BAD_CAST "k", xml_chars(rule.ns)) != 0)
        throw std::bad_alloc();
      ns_ = rule.ns;
      local_ = rule.local;
      value_.clear();
      has_value_ = false;
    }
    if (!has_value_ || rule.value != value_) {
      // The context owns the registered value and frees the previous one.
      xmlXPathRegisterVariable(xpath_.get(), BAD_CAST "value",
                               xmlXPathNewString(xml_chars(rule.value)));
      value_ = rule.value;
      has_value_ = true;
    }
  }

  xml::libxml2::ReusedContext ctxt_;
  std::unique_ptr<xmlXPathContext, FreeContext> xpath_;
  std::unique_ptr<xmlXPathCompExpr, FreeCompiled> compiled_;
  std::string ns_, local_, value_;
  bool has_value_ = false;
};

}  // namespace
}  // namespace wb::route

WB_DEFINE_ROUTER(soap, libxml2_xpath, wb::route::Libxml2XpathRouter)
