// wcfjson decoders with Simdjson as the JSON reader, one per XML library DOM.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/read_simdjson.hpp"

namespace wb::wcfjson {
template <class Dom>
using SimdjsonDecoder = InfosetDecoder<SimdjsonReader, Dom>;
}  // namespace wb::wcfjson

WB_DEFINE_DECODER(wcfjson, simdjson_pugixml,
                  wb::wcfjson::SimdjsonDecoder<wb::wcfjson::PugixmlInfoset>)
WB_DEFINE_DECODER(wcfjson, simdjson_libxml2,
                  wb::wcfjson::SimdjsonDecoder<wb::wcfjson::Libxml2Infoset>)
WB_DEFINE_DECODER(wcfjson, simdjson_xerces,
                  wb::wcfjson::SimdjsonDecoder<wb::wcfjson::XercesInfoset>)
