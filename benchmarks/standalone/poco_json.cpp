// Poco's JSON parser's standalone loop beside our seam's parse-only, on
// json/science/8100: Parser with a Handler that only counts, as the adapter
// is event-based. Named *poco*.cpp, it gets Poco's compile definitions
// (cmake/xml_compress_libraries.cmake).
#include <string>

#include <Poco/JSON/Handler.h>
#include <Poco/JSON/Parser.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

// Poco's Parser with a Handler that counts (its ParseHandler would build
// Poco's own tree, which the adapter does not).
class CountingHandler : public Poco::JSON::Handler {
 public:
  std::size_t events = 0;
  void reset() override {}
  void startObject() override { ++events; }
  void endObject() override { ++events; }
  void startArray() override { ++events; }
  void endArray() override { ++events; }
  void key(const std::string&) override { ++events; }
  void null() override { ++events; }
  void value(int) override { ++events; }
  void value(unsigned) override { ++events; }
  void value(Poco::Int64) override { ++events; }
  void value(Poco::UInt64) override { ++events; }
  void value(const std::string&) override { ++events; }
  void value(double) override { ++events; }
  void value(bool) override { ++events; }
};

void poco_events(benchmark::State& state) {
  Poco::SharedPtr<CountingHandler> handler(new CountingHandler);
  Poco::JSON::Parser parser(handler);
  run(state, [&](const std::string& in) {
    parser.reset();
    // Parser::parse takes a std::string: the payload as a string, as a
    // user holds it (our seam copies its string_view into one).
    parser.parse(in);
    return handler->events;
  });
}

const bool kJson = json_loops({{"poco", poco_events}});

}  // namespace
