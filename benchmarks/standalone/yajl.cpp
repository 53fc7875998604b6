// YAJL's standalone loop on json/science/8100, beside our seam's parse-only:
// as our adapter is event-based, its parser runs with callbacks that count,
// building no tree.
#include <cstddef>
#include <stdexcept>
#include <string>

#include <yajl/yajl_parse.h>

#include "benchmarks/standalone/loops.hpp"

namespace {

using namespace wb::standalone;

// YAJL with callbacks for every event (its own number conversion), counting.
int count(void* n) {
  return ++*static_cast<std::size_t*>(n), 1;
}
const yajl_callbacks kCounting = {
    count,
    [](void* n, int) { return count(n); },
    [](void* n, long long) { return count(n); },
    [](void* n, double) { return count(n); },
    nullptr,
    [](void* n, const unsigned char*, std::size_t) { return count(n); },
    count,
    [](void* n, const unsigned char*, std::size_t) { return count(n); },
    count,
    count,
    count,
};

void yajl_events(benchmark::State& state) {
  run(state, [](const std::string& in) {
    std::size_t events = 0;
    yajl_handle h = yajl_alloc(&kCounting, nullptr, &events);
    const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
    const bool ok = yajl_parse(h, bytes, in.size()) == yajl_status_ok &&
                    yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    if (!ok) throw std::runtime_error("yajl parse error");
    return events;
  });
}

const bool kJson = json_loops({{"yajl", yajl_events}});

}  // namespace
