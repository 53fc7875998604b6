// wcfjson encoders with Boost.JSON as the JSON writer, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/write_boostjson.hpp"

namespace wb::wcfjson {
template <class Dom>
using BoostjsonEncoder = InfosetEncoder<Dom, BoostjsonWriter>;
}  // namespace wb::wcfjson

WB_DEFINE_ENCODER(wcfjson, pugixml_boostjson,
                  wb::wcfjson::BoostjsonEncoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_ENCODER(wcfjson, libxml2_boostjson,
                  wb::wcfjson::BoostjsonEncoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_ENCODER(wcfjson, xerces_boostjson,
                  wb::wcfjson::BoostjsonEncoder<wb::wcfjson::XercesInfoset>)
