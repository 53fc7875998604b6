// expat early exit: a streaming sniff that stops the parser (XML_StopParser)
// as soon as the first key element has ended, so only the bytes up to the key
// are parsed. The parser is set up as for the expat decoder (expat_common.hpp).
#include "codecs/registry.hpp"
#include "codecs/route/sniff.hpp"
#include "codecs/router.hpp"
#include "codecs/tokens.hpp"
#include "codecs/xml/adapters/expat_common.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::route {
namespace {

constexpr std::string_view kLibrary = token::router_soap_expat_sniff;

void stop(XML_Parser parser) {
  XML_StopParser(parser, XML_FALSE);  // XML_Parse then reports "aborted"
}
using SniffState = CallbackSniff<XML_Parser, stop>;

void on_start(void* user_data, const XML_Char* name, const XML_Char**) {
  const auto [uri, local] = xml::expat::split(name);
  SniffState::of(user_data).sniffer.start(uri, local);
}

void on_end(void* user_data, const XML_Char*) {
  SniffState::of(user_data).end();
}

void on_text(void* user_data, const XML_Char* chars, int len) {
  SniffState::of(user_data).sniffer.text(std::string_view(chars, len));
}

class ExpatSniffRouter : public Router {
 public:
  bool route(std::string_view payload, const RouteRule& rule) override {
    const xml::Document doc = xml::open_document(kLibrary, payload);
    state_.sniffer.reset(rule.ns, rule.local, rule.value);
    state_.parser = parser_.reset(&state_);
    XML_SetElementHandler(state_.parser, on_start, on_end);
    XML_SetCharacterDataHandler(state_.parser, on_text);
    // Errors before the stop count; the stop itself is none.
    parser_.parse(kLibrary, doc.body, doc.skipped);
    return state_.sniffer.matched();
  }

 private:
  xml::expat::Parser parser_;
  SniffState state_;
};

}  // namespace
}  // namespace wb::route

WB_DEFINE_ROUTER(soap, expat_sniff, wb::route::ExpatSniffRouter)
