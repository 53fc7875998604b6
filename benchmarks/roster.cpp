#include "benchmarks/roster.hpp"

#include <map>
#include <utility>

#include "benchmarks/band.hpp"

namespace wb::bench {
namespace {

std::vector<Entrant>& entrants() {
  static std::vector<Entrant> all;
  return all;
}

std::map<std::string, std::string>& probes() {
  static std::map<std::string, std::string> all;
  return all;
}

}  // namespace

std::string unit_of(std::string_view name) {
  if (rows_in_name(name) == 0) return {};
  const std::size_t first = name.find('/');
  const std::size_t third = name.find('/', name.find('/', first + 1) + 1);
  return std::string(name.substr(first + 1, third - first - 1));
}

benchmark::internal::Benchmark* register_entrant(const Entrant& entrant) {
  return benchmark::RegisterBenchmark(entrant.name.c_str(), entrant.body)
      ->Unit(benchmark::kMicrosecond);
}

benchmark::internal::Benchmark* enrol(std::string name, Body body, std::string unit) {
  entrants().push_back(Entrant{std::move(name), std::move(body), std::move(unit)});
  return register_entrant(entrants().back());
}

const std::vector<Entrant>& roster() {
  return entrants();
}

void set_unit_probe(const std::string& unit, const std::string& name) {
  probes()[unit] = name;
}

std::string unit_probe(const std::string& unit) {
  auto found = probes().find(unit);
  return found == probes().end() ? std::string() : found->second;
}

}  // namespace wb::bench
