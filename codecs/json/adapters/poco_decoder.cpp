// Poco JSON: Poco::JSON::Parser with a Handler of our own, its documented
// extension point (ParseHandler, which builds Poco's Object and Array tree,
// is one such handler), that feeds the shared SaxBinder: no tree is built.
// Parser::parse takes a std::string, so the payload is copied into a reused
// one first; that copy is part of what is measured.
#include <Poco/JSON/Handler.h>
#include <Poco/JSON/JSONException.h>
#include <Poco/JSON/Parser.h>

#include <cstdint>
#include <string>

#include "codecs/json/feed.hpp"
#include "codecs/json/input_checks.hpp"
#include "codecs/registry.hpp"
#include "codecs/tokens.hpp"

namespace wb::json {
namespace {

constexpr std::string_view kLibrary = token::decoder_json_poco;

// Poco's events, forwarded to the target of the call under way.
template <class Target>
class Forwarder : public Poco::JSON::Handler {
 public:
  Target* target = nullptr;
  void reset() override {}
  void startObject() override { target->start_object(); }
  void endObject() override { target->end_object(); }
  void startArray() override { target->start_array(); }
  void endArray() override { target->end_array(); }
  void key(const std::string& k) override { target->key(k); }
  void null() override { target->null(); }
  void value(int v) override { target->integer(v); }
  void value(unsigned v) override { target->integer(v); }
  void value(Poco::Int64 v) override { target->integer(v); }
  // Called for an integer that Poco could not read as an Int64, so above
  // INT64_MAX: one that fits in int64 is 2^64 to 2^64 + 3 wrapped around by
  // Poco 1.11's overflow check (docs/findings.md).
  void value(Poco::UInt64 v) override {
    if (v <= INT64_MAX) throw DecodeError(kLibrary, "an integer beyond 64 bits (Poco wraps it)");
    target->unsigned_integer(v);
  }
  void value(const std::string& v) override { target->string(v); }
  // Poco converts with double-conversion's correctly rounded strtod, and
  // keeps its infinity for 1e400.
  void value(double v) override { target->number(finite_double(kLibrary, v)); }
  void value(bool v) override { target->boolean(v); }
};

// A Parser and its handler for one target type, made once.
template <class Target>
class PocoParser {
 public:
  PocoParser() : forwarder_(new Forwarder<Target>), parser_(forwarder_) {
    // Poco's default depth is 128; its parser recurses per level, so a
    // limit stays, at the depth the other decoders allow.
    parser_.setDepth(kMaxDepth);
  }
  void parse(const std::string& json, Target& target) {
    forwarder_->target = &target;
    parser_.reset();
    parser_.parse(json);
  }

 private:
  static constexpr std::size_t kMaxDepth = 1024;
  Poco::SharedPtr<Forwarder<Target>> forwarder_;
  Poco::JSON::Parser parser_;
};

class PocoDecoder : public EventDecoderFor<PocoDecoder> {
 public:
  static constexpr bool kEntityRows = true;
  // Poco's errors say what but not where: no offset.
  template <class Target>
  void walk(std::string_view input, Target& target) {
    const std::string_view json = skip_bom(input);
    text_.assign(json);
    try {
      if constexpr (std::is_same_v<Target, IgnoreEvents>) {
        ignore_parser_.parse(text_, target);
      } else if constexpr (std::is_same_v<Target, CanonicalJson>) {
        PocoParser<CanonicalJson>().parse(text_, target);  // never timed: made per call
      } else {
        binder_parser_.parse(text_, target);
      }
    } catch (const Poco::Exception& e) {
      throw DecodeError(kLibrary, brief(e.displayText()));
    }
  }

 private:
  std::string text_;  // the payload's copy, reused
  PocoParser<SaxBinderBase> binder_parser_;
  PocoParser<IgnoreEvents> ignore_parser_;
};

}  // namespace
}  // namespace wb::json

WB_DEFINE_JSON_DECODER(poco, wb::json::PocoDecoder)
