// Every wcfjson pairing of a JSON library with an XML library (the "+" lines
// of codecs/registry.def): each JSON library pairs with each XML library's
// infoset tree, so the table is one line a JSON library and direction. A
// pairing is a composition of its parts (pairing.hpp) and needs no code of
// its own.
#include "codecs/registry.hpp"
#include "codecs/wcfjson/dom_libxml2.hpp"
#include "codecs/wcfjson/dom_pugixml.hpp"
#include "codecs/wcfjson/dom_xerces.hpp"
#include "codecs/wcfjson/pairing.hpp"
#include "codecs/wcfjson/read_boostjson.hpp"
#include "codecs/wcfjson/read_nlohmann.hpp"
#include "codecs/wcfjson/read_rapidjson.hpp"
#include "codecs/wcfjson/read_simdjson.hpp"
#include "codecs/wcfjson/write_boostjson.hpp"
#include "codecs/wcfjson/write_nlohmann.hpp"
#include "codecs/wcfjson/write_rapidjson.hpp"

namespace wb::wcfjson {
// The pairings over one XML library's tree, each named with a single
// template argument: the factory macros would split InfosetEncoder<Dom,
// Writer> at its comma.
template <class Dom>
struct InfosetIn {
  template <class Writer>
  using Encoder = InfosetEncoder<Dom, Writer>;
  template <class Reader>
  using Decoder = InfosetDecoder<Reader, Dom>;
};
}  // namespace wb::wcfjson

// pairing(xml, Dom, json, Part) for each XML library: its registry token and
// its infoset tree, with the JSON library's token and its reader or writer.
#define WB_WCFJSON_EACH_XML(pairing, json, Part)                                            \
  pairing(pugixml, PugixmlInfoset, json, Part) pairing(libxml2, Libxml2Infoset, json, Part) \
      pairing(xerces, XercesInfoset, json, Part)
// Encoders "{xml}+{json}", decoders "{json}+{xml}", as the registry names them.
#define WB_WCFJSON_ENCODER(xml, Dom, json, Writer) \
  WB_DEFINE_ENCODER(wcfjson, xml##_##json,         \
                    wb::wcfjson::InfosetIn<wb::wcfjson::Dom>::Encoder<wb::wcfjson::Writer>)
#define WB_WCFJSON_DECODER(xml, Dom, json, Reader) \
  WB_DEFINE_DECODER(wcfjson, json##_##xml,         \
                    wb::wcfjson::InfosetIn<wb::wcfjson::Dom>::Decoder<wb::wcfjson::Reader>)

WB_WCFJSON_EACH_XML(WB_WCFJSON_ENCODER, rapidjson, RapidjsonWriter)
WB_WCFJSON_EACH_XML(WB_WCFJSON_ENCODER, nlohmann, NlohmannWriter)
WB_WCFJSON_EACH_XML(WB_WCFJSON_ENCODER, boostjson, BoostjsonWriter)
WB_WCFJSON_EACH_XML(WB_WCFJSON_DECODER, rapidjson, RapidjsonReader)
WB_WCFJSON_EACH_XML(WB_WCFJSON_DECODER, nlohmann, NlohmannReader)
WB_WCFJSON_EACH_XML(WB_WCFJSON_DECODER, simdjson, SimdjsonReader)
WB_WCFJSON_EACH_XML(WB_WCFJSON_DECODER, boostjson, BoostjsonReader)
