// nlohmann/json SAX (json::sax_parse): events go straight into SaxBinder.
#include <nlohmann/json.hpp>

#include "codecs/json/adapters/nlohmann_error.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_nlohmann_sax;
using Json = nlohmann::json;

// nlohmann's SAX interface (checked statically by sax_parse, no virtuals),
// forwarded to Target. Returning true always: the binder throws on a bad shape.
template <class Target>
class Forwarder {
 public:
  Forwarder(Target& t, std::size_t bom) : t_(t), bom_(bom) {}
  bool null() { return t_.null(), true; }
  bool boolean(bool v) { return t_.boolean(v), true; }
  bool number_integer(Json::number_integer_t v) { return t_.integer(v), true; }
  bool number_unsigned(Json::number_unsigned_t v) { return t_.unsigned_integer(v), true; }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return t_.number(v), true; }
  bool string(Json::string_t& v) { return t_.string(v), true; }
  bool binary(Json::binary_t&) { return false; }  // only from binary formats
  bool start_object(std::size_t) { return t_.start_object(), true; }
  bool key(Json::string_t& k) { return t_.key(k), true; }
  bool end_object() { return t_.end_object(), true; }
  bool start_array(std::size_t) { return t_.start_array(), true; }
  bool end_array() { return t_.end_array(), true; }
  bool parse_error(std::size_t chars_read, const std::string&,
                   const nlohmann::detail::exception& e) {
    throw_nlohmann_error(kLibrary, e, chars_read, bom_);
  }

 private:
  Target& t_;
  std::size_t bom_;
};

class NlohmannSaxDecoder : public EventDecoderFor<NlohmannSaxDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  template <class Target>
  static void walk(std::string_view input, Target& target) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    reject_nul(kLibrary, json, bom);
    Forwarder<Target> sax(target, bom);
    // strict: the whole input must be one JSON value.
    Json::sax_parse(json.begin(), json.end(), &sax);
  }
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(nlohmann_sax, wb::json::NlohmannSaxDecoder)
