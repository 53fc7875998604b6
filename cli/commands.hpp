// The subcommands of wirebench_cli. Each takes the words after its name,
// prints its own help for --help, and returns the exit status; mistakes in the
// request are thrown as UsageError (exit 2), other failures as std::exception.
#pragma once

#include <span>
#include <string_view>

namespace wb::cli {

using Args = std::span<const std::string_view>;

int run_list(Args args);
int run_encode(Args args);
int run_decode(Args args);
int run_sizes(Args args);
int run_infoset(Args args);
int run_conformance(Args args);
int run_payload_kind(Args args);
int run_verdict(Args args);

}  // namespace wb::cli
