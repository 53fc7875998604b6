// nlohmann/json: the feed is built as an ordered_json value (member order is
// the schema's, as OData writes it) and serialized with dump().
#include <string>
#include <vector>

#include "codecs/json/adapters/nlohmann_builder.hpp"
#include "codecs/json/feed.hpp"
#include "codecs/registry.hpp"

namespace wb::json {
namespace {

class NlohmannEncoder : public JsonEncoderFor<NlohmannEncoder> {
 public:
  template <class T>
  void encode_rows(const std::vector<T>& rows, std::string& out) {
    sink_.reset();  // after a throw, the last tree may be half built
    write_feed(sink_, rows, this->envelope());
    // dump() is the library's public way out; it returns a new string, so
    // out's old buffer is replaced rather than reused.
    out = sink_.root().dump();
    sink_.reset();  // free the tree now rather than at the next call
  }

 private:
  NlohmannBuilder sink_;  // reused for its stack and key buffers
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_ENCODER(nlohmann, wb::json::NlohmannEncoder)
