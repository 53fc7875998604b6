// wcfjson encoders with Nlohmann as the JSON writer, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/write_nlohmann.hpp"

namespace wb::wcfjson {
template <class Dom>
using NlohmannEncoder = InfosetEncoder<Dom, NlohmannWriter>;
}  // namespace wb::wcfjson

WB_DEFINE_ENCODER(wcfjson, pugixml_nlohmann,
                  wb::wcfjson::NlohmannEncoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_ENCODER(wcfjson, libxml2_nlohmann,
                  wb::wcfjson::NlohmannEncoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_ENCODER(wcfjson, xerces_nlohmann,
                  wb::wcfjson::NlohmannEncoder<wb::wcfjson::XercesInfoset>)
