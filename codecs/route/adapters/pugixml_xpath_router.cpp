// pugixml XPath: parse the whole payload into a DOM, then one compiled query.
// pugixml's XPath has no namespace bindings (no prefixes can be declared), so
// the key is selected by local-name() and namespace-uri(), which pugixml
// resolves from the xmlns attributes in scope. The query is compiled once;
// the rule reaches it through XPath variables.
#include <pugixml.hpp>

#include "codecs/codec.hpp"
#include "codecs/registry.hpp"
#include "codecs/router.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::route {
namespace {

constexpr std::string_view kLibrary = token::router_soap_pugixml_xpath;
// The first key element in document order ((...)[1], not //x[1], which would
// be every key that is the first among its siblings), its string-value
// compared with the expected text.
constexpr char kQuery[] =
    "string((//*[local-name() = $local and namespace-uri() = $ns])[1]) = $value";

class PugixmlXpathRouter : public Router {
 public:
  PugixmlXpathRouter() {
    vars_.add("ns", pugi::xpath_type_string);
    vars_.add("local", pugi::xpath_type_string);
    vars_.add("value", pugi::xpath_type_string);
    query_ = pugi::xpath_query(kQuery, &vars_);
  }

  bool route(std::string_view payload, const RouteRule& rule) override {
    set("ns", rule.ns);
    set("local", rule.local);
    set("value", rule.value);
    const auto [body, skipped] = xml::open_document(kLibrary, payload);
    // As the pugixml decoder parses (codecs/xml/adapters/pugixml_codec.cpp): CDATA kept,
    // entity references resolved, no DTD.
    const pugi::xml_parse_result r =
        doc_.load_buffer(body.data(), body.size(), pugi::parse_default | pugi::parse_ws_pcdata);
    if (!r) throw DecodeError(kLibrary, r.description(), skipped + r.offset);
    return query_.evaluate_boolean(doc_);
  }

 private:
  // Variables keep their strings; a rule that does not change costs a compare.
  void set(const char* name, const std::string& value) {
    pugi::xpath_variable* v = vars_.get(name);
    if (value != v->get_string()) v->set(value.c_str());
  }
  pugi::xpath_variable_set vars_;
  pugi::xpath_query query_;
  pugi::xml_document doc_;
};

}  // namespace
}  // namespace wb::route

WB_DEFINE_ROUTER(soap, pugixml_xpath, wb::route::PugixmlXpathRouter)
