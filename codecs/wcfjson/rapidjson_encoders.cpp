// wcfjson encoders with Rapidjson as the JSON writer, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/write_rapidjson.hpp"

namespace wb::wcfjson {
template <class Dom>
using RapidjsonEncoder = InfosetEncoder<Dom, RapidjsonWriter>;
}  // namespace wb::wcfjson

WB_DEFINE_ENCODER(wcfjson, pugixml_rapidjson,
                  wb::wcfjson::RapidjsonEncoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_ENCODER(wcfjson, libxml2_rapidjson,
                  wb::wcfjson::RapidjsonEncoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_ENCODER(wcfjson, xerces_rapidjson,
                  wb::wcfjson::RapidjsonEncoder<wb::wcfjson::XercesInfoset>)
