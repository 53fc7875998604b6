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

void enrol(std::string name, benchmark::internal::Benchmark* family, std::string unit) {
  entrants().push_back(Entrant{std::move(name), family, std::move(unit)});
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
