// Content routing: the question a middleware hop asks of a payload before
// forwarding it ("is the first record's key X?"), answered without binding
// records. One Router per library and mode, listed in codecs/registry.def as
// WB_ROUTER(format, identifier, "library token").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "generators/model.hpp"

namespace wb {

// The predicate: the first element (in document order) named {ns}local has
// the text value.
struct RouteRule {
  std::string ns;     // the data-contract namespace URI of the key member
  std::string local;  // the key member's local name, e.g. "Name"
  std::string value;  // the text it must equal
};

class Router {
 public:
  virtual ~Router() = default;
  // Whether the payload matches rule. Throws DecodeError when the payload is
  // not well-formed as far as the router reads it: DOM routers read it all,
  // streaming sniffers stop at the key, so a payload broken only after the
  // key may still route. A well-formed payload without the key gives false.
  virtual bool route(std::string_view payload, const RouteRule& rule) = 0;
};

// The rule "first record's key member equals its value in records" for the
// soap payload of records (airport: Name, message: ID, science:
// PartitionKey); none for a dataset without such a key or with no rows.
std::optional<RouteRule> first_key_rule(const Records& records);

}  // namespace wb

// An adapter ends with WB_DEFINE_ROUTER(soap, pugixml_xpath, PugixmlXpathRouter).
#define WB_DEFINE_ROUTER(format, ident, Class)                      \
  std::unique_ptr<wb::Router> wb_make_router_##format##_##ident() { \
    return std::make_unique<Class>();                               \
  }
