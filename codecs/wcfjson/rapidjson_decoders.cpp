// wcfjson decoders with Rapidjson as the JSON reader, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/read_rapidjson.hpp"

namespace wb::wcfjson {
template <class Dom>
using RapidjsonDecoder = InfosetDecoder<RapidjsonReader, Dom>;
}  // namespace wb::wcfjson

WB_DEFINE_DECODER(wcfjson, rapidjson_pugixml,
                  wb::wcfjson::RapidjsonDecoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_DECODER(wcfjson, rapidjson_libxml2,
                  wb::wcfjson::RapidjsonDecoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_DECODER(wcfjson, rapidjson_xerces,
                  wb::wcfjson::RapidjsonDecoder<wb::wcfjson::XercesInfoset>)
