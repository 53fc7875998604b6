// Boost.JSON's basic_parser as an infoset source: every number comes with its
// text as written (integers too, so "-0" stays "-0"), which the mapping keeps.
#pragma once

#include <string_view>

#include "codecs/json/adapters/boostjson_events.hpp"

namespace wb::wcfjson {

class BoostjsonReader {
 public:
  static constexpr std::string_view kName = "boostjson";

  // The parser's handler type names the target, which differs per DOM, so a
  // parser is made per call (its stack grows once per payload).
  template <class Target>
  void parse(std::string_view input, Target& target) {
    Numbers<Target> numbers{target};
    boost::json::basic_parser<json::BoostjsonEvents<Numbers<Target>>> parser(
        json::boostjson_options());
    parser.handler().attach(numbers);
    json::boostjson_parse(kName, parser, input);
  }

 private:
  // The mapping's target with number(text) in place of the typed events.
  template <class Target>
  struct Numbers {
    Target& t;
    void start_object() { t.start_object(); }
    void end_object() { t.end_object(); }
    void start_array() { t.start_array(); }
    void end_array() { t.end_array(); }
    void key(std::string_view k) { t.key(k); }
    void string(std::string_view v) { t.string(v); }
    void boolean(bool v) { t.boolean(v); }
    void null() { t.null(); }
    void int64(int64_t, std::string_view text) { t.number(text); }
    void uint64(uint64_t, std::string_view text) { t.number(text); }
    void floating(double, std::string_view text) { t.number(text); }
  };
};

}  // namespace wb::wcfjson
