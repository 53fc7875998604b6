#include "benchmarks/kept.hpp"

namespace wb::bench {
namespace {

double& preparation() {
  static double seconds = 0;
  return seconds;
}

}  // namespace

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
