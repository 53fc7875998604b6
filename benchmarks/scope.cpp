#include "benchmarks/scope.hpp"

namespace wb::bench {

RunScope run_scope(std::span<char* const> args, bool threads, bool icount, bool payload) {
  if (payload) return RunScope::payload;
  if (threads || icount) return RunScope::focused;
  for (const char* arg : args)
    if (std::string_view(arg).starts_with("--benchmark_filter=")) return RunScope::focused;
  return RunScope::whole;
}

std::string_view scope_name(RunScope scope) {
  switch (scope) {
    case RunScope::whole:
      return "whole";
    case RunScope::focused:
      return "focused";
    case RunScope::payload:
      return "payload";
  }
  return "focused";
}

}  // namespace wb::bench
