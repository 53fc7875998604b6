// nlohmann/json DOM: json::parse into a value, then the shared DomBinder.
#include <nlohmann/json.hpp>

#include "codecs/json/feed.hpp"
#include "codecs/json/nlohmann_error.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = "nlohmann-dom";

// Json: nlohmann::json, or ordered_json for entity rows (json's objects are
// std::maps, which sort members; a row's properties are in wire order).
template <class Json>
struct NlohmannDom {
  using Value = const Json&;
  static bool is_object(Value v) { return v.is_object(); }
  static bool is_array(Value v) { return v.is_array(); }
  static std::size_t size(Value v) { return v.is_structured() ? v.size() : 0; }
  template <class F>
  static void members(Value v, F f) {
    for (const auto& [key, child] : v.template get_ref<const typename Json::object_t&>())
      f(key, child);
  }
  template <class F>
  static void elements(Value v, F f) {
    for (const auto& e : v.template get_ref<const typename Json::array_t&>()) f(e);
  }
  static void store(const FieldSlot& s, void* record, Value v) {
    using Type = typename Json::value_t;
    switch (v.type()) {
      case Type::string:
        return store_string(kFormat, s, record, v.template get_ref<const std::string&>());
      case Type::number_integer:
        return store_int(kFormat, s, record, v.template get<int64_t>());
      case Type::number_unsigned:  // nlohmann reads every non-negative integer as unsigned
        return store_unsigned(s, record, v.template get<uint64_t>());
      case Type::number_float:
        return store_double(kFormat, s, record, v.template get<double>());
      case Type::boolean:
        return store_bool(kFormat, s, record, v.template get<bool>());
      case Type::null:
        return store_null(kFormat, s, record);
      default:
        wrong_type(kFormat, s, std::string("a ") + v.type_name());
    }
  }
};

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
    } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range
      throw DecodeError(kLibrary, e.what());
    }
  }
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(nlohmann_dom, wb::json::NlohmannDomDecoder)
