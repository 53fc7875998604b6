// A wcfjson pairing is a composition, not an adapter of its own:
//   decode = Reader (JSON library -> JsonToInfoset events) into Dom (an XML
//            library's tree), then the SOAP decoders' binder walks that tree;
//   encode = write_infoset into Dom, then Writer (JSON library) walks it.
// Readers: read_<json library>.hpp; Doms: dom_<xml library>.hpp; Writers:
// write_<json library>.hpp. The pairings themselves are the product of the
// two lists in cmake/wcfjson_pairings.cmake, over the libraries built.
#pragma once

#include <string>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/wcfjson/infoset.hpp"
#include "codecs/xml/binder.hpp"

namespace wb::wcfjson {

template <class Reader, class Dom>
class InfosetDecoder : public DecoderFor<InfosetDecoder<Reader, Dom>> {
 public:
  template <class T>
  void decode_rows(std::string_view input, std::vector<T>& rows) {
    build(input);
    xml::Binder<T> binder(xml::Shape::infoset, rows, nullptr);
    xml::walk_dom(dom_, dom_.root(), binder);
    binder.finish();
  }
  // The JSON parse and the infoset it builds, without binding.
  // Returns the infoset's element count.
  std::size_t parse_only(std::string_view input) final { return build(input); }

 private:
  std::size_t build(std::string_view input) {
    dom_.reset();
    JsonToInfoset<Dom> mapping(dom_);
    reader_.parse(input, mapping);
    mapping.finish();
    return mapping.elements();
  }
  Reader reader_;
  Dom dom_;
};

template <class Dom, class Writer>
class InfosetEncoder : public EncoderFor<InfosetEncoder<Dom, Writer>> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    dom_.reset();
    write_infoset(dom_, rows);
    writer_.write(dom_, dom_.root(), out);
    built_ = true;
  }
  // The infoset of the last payload (still in dom_) serialised as XML.
  void report_counters(std::vector<Counter>& out) final {
    if (!built_) return;
    scratch_.clear();
    XmlTextSink sink(scratch_);
    copy_infoset(dom_, dom_.root(), sink);
    out.push_back({"infoset_bytes", static_cast<double>(scratch_.size())});
  }

 private:
  Dom dom_;
  Writer writer_;
  bool built_ = false;
  std::string scratch_;
};

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
