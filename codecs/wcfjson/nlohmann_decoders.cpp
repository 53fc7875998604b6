// wcfjson decoders with Nlohmann as the JSON reader, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/read_nlohmann.hpp"

namespace wb::wcfjson {
template <class Dom>
using NlohmannDecoder = InfosetDecoder<NlohmannReader, Dom>;
}  // namespace wb::wcfjson

WB_DEFINE_DECODER(wcfjson, nlohmann_pugixml,
                  wb::wcfjson::NlohmannDecoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_DECODER(wcfjson, nlohmann_libxml2,
                  wb::wcfjson::NlohmannDecoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_DECODER(wcfjson, nlohmann_xerces,
                  wb::wcfjson::NlohmannDecoder<wb::wcfjson::XercesInfoset>)
