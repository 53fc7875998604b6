// wcfjson decoders with Boost.JSON as the JSON reader, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/read_boostjson.hpp"

namespace wb::wcfjson {
template <class Dom>
using BoostjsonDecoder = InfosetDecoder<BoostjsonReader, Dom>;
}  // namespace wb::wcfjson

WB_DEFINE_DECODER(wcfjson, boostjson_pugixml,
                  wb::wcfjson::BoostjsonDecoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_DECODER(wcfjson, boostjson_libxml2,
                  wb::wcfjson::BoostjsonDecoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_DECODER(wcfjson, boostjson_xerces,
                  wb::wcfjson::BoostjsonDecoder<wb::wcfjson::XercesInfoset>)
