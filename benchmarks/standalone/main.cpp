// wirebench_standalone: each library's parse in the smallest loop its
// documentation suggests, bypassing our codec seam. For the JSON libraries it
// is the figure the harness's parse-only benchmarks are checked against (the
// seam should add < 15 %), so it names the libraries on purpose.
// Each file beside this one includes one benchmarked library, is named after
// it and registers that library's loops through the tables of loops.hpp: the
// CMake globs that name a library's sources (cmake/optional_libraries.cmake,
// cmake/xml_compress_libraries.cmake) then leave its loops out of a build
// without it, and give them its compile definitions. This file holds the main
// alone, with no library.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
