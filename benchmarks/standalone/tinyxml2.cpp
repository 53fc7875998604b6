// TinyXML-2's standalone loop on atom/science/8100, its parse as its
// documentation shows it with nothing bound, beside our seam's parse-only and
// decode of the same payload: XMLDocument::Parse with its length (a reused
// document). Named tinyxml2*.cpp, it gets TinyXML-2's compile definitions
// (cmake/xml_compress_libraries.cmake).
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>
#include <tinyxml2.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

void tinyxml2_parse(benchmark::State& state) {
  tinyxml2::XMLDocument doc;
  run(
      state,
      [&](const std::string& in) {
        if (doc.Parse(in.data(), in.size()) != tinyxml2::XML_SUCCESS)
          throw std::runtime_error(doc.ErrorStr());
      },
      atom_payload());
}

const bool kAtom = atom_loops({{"tinyxml2", {{"parse", tinyxml2_parse}}}});

}  // namespace
