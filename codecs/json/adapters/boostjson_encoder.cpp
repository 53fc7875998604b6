// Boost.JSON's writer: the feed is built as a boost::json::value (members in
// the schema's order; boost::json::object keeps insertion order) and written
// by boost::json::serializer, the documented way out of a value. Doubles are
// Boost's shortest round-trip form in scientific notation ("1.5E0").
#include "codecs/json/adapters/boostjson_builder.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

class BoostjsonEncoder : public JsonEncoderFor<BoostjsonEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    builder_.reset();
    write_feed(builder_, rows, this->envelope());
    const boost::json::value doc = builder_.release();
    serialize_into(serializer_, doc, out);
  }

 private:
  BoostjsonBuilder builder_;  // reused for its arena and stacks
  boost::json::serializer serializer_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_ENCODER(boostjson, wb::json::BoostjsonEncoder)
