// nlohmann/json DOM: json::parse into a value, then the shared DomBinder.
#include <nlohmann/json.hpp>

#include "codecs/json/adapters/nlohmann_dom.hpp"
#include "codecs/json/adapters/nlohmann_error.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_nlohmann_dom;

class NlohmannDomDecoder : public DecoderFor<NlohmannDomDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  // The tree lives for one call only: keeping the previous one until the next
  // parse replaces it would hold two trees at once, and the doubled working
  // set makes parse-only 1.3x slower than the library's own minimal loop.
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    if constexpr (std::is_same_v<T, EntityRow>)
      DomBinder<NlohmannDom<nlohmann::ordered_json>>::bind_feed(
          parse<nlohmann::ordered_json>(input), rows, this->page_out());
    else
      DomBinder<NlohmannDom<nlohmann::json>>::bind_feed(parse<nlohmann::json>(input), rows,
                                                        this->page_out());
  }

  std::size_t parse_only(std::string_view input) final {
    return DomBinder<NlohmannDom<nlohmann::json>>::figure(parse<nlohmann::json>(input));
  }
  bool canonical(std::string_view input, std::string& out) final {
    return write_canonical<NlohmannDom<nlohmann::json>>(parse<nlohmann::json>(input), out);
  }

 private:
  template <class Json>
  static Json parse(std::string_view input) {
    const std::string_view json = skip_bom(input);
    const std::size_t bom = input.size() - json.size();
    reject_nul(kLibrary, json, bom);
    try {
      return Json::parse(json.begin(), json.end());
    } catch (const nlohmann::json::parse_error& e) {  // ordered_json throws the same types
      throw_nlohmann_error(kLibrary, e, e.byte, bom);
    } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range: no position
      throw DecodeError(kLibrary, shorten_quotes(e.what()));
    }
  }
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(nlohmann_dom, wb::json::NlohmannDomDecoder)
