#include "benchmarks/kept.hpp"

#include <malloc.h>
#include <unistd.h>

namespace wb::bench {
namespace {

double& preparation() {
  static double seconds = 0;
  return seconds;
}

}  // namespace

bool KeptStates::over_budget_now() const {
  // A quarter of the machine's memory: the heap of a unit's kept states
  // beside the payloads and whatever else runs.
  static const double budget = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                               static_cast<double>(::sysconf(_SC_PAGESIZE)) / 4;
  const struct mallinfo2 heap = ::mallinfo2();
  return static_cast<double>(heap.uordblks + heap.hblkhd) > budget;
}

KeptStates& KeptStates::instance() {
  static KeptStates states;
  return states;
}

double preparation_seconds() {
  return preparation();
}

void add_preparation_seconds(double seconds) {
  preparation() += seconds;
}

}  // namespace wb::bench
