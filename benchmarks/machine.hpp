// The build and the machine a result was made with, for the context of
// every benchmark program's result file (wirebench_bench, wirebench_tls_cpu):
// compiler and flags, commit, processor, kernel, pinning, heap settings.
#pragma once

namespace wb::bench {

// Adds compiler, cxx_flags, wirebench_build_type, git_commit (env
// WIREBENCH_COMMIT), cpu_model, kernel, cpu_pinned and glibc_tunables.
void add_machine_context();

}  // namespace wb::bench
