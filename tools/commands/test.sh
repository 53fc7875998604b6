#!/usr/bin/env bash
# `./wirebench test`: the Release suite, then the same suite under ASan+UBSan
# and the fuzz targets briefly, in phases that each report wall and CPU time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=tools/lib.sh
source "$ROOT/tools/lib.sh"

usage() {
  cat <<'USAGE'
usage: ./wirebench test [--no-sanitize] [--fuzz-seconds N] [CTEST ARGS]

Installs what is missing, builds Release and runs the tests: the C++ suite as
one gtest shard per job (WIREBENCH_JOBS, default the number of CPUs), then
the measured wire's tests alone, then the Python tools' tests through ctest.
Then builds the debug preset (clang, ASan+UBSan, build/debug), runs the C++
suite again under it, and every fuzz target N seconds (default 5; 0: none)
with a fixed libFuzzer seed (./wirebench fuzz: a new seed each run).

  --no-sanitize      the Release tests only (or WIREBENCH_SANITIZE=0)
  --fuzz-seconds N   seconds per fuzz target (or WIREBENCH_FUZZ_SECONDS=N)
  CTEST ARGS         e.g. -R RoundTrip: ctest runs the selected tests instead,
                     one process each
  -h, --help         this text

Each phase prints its wall time and its CPU time (user + sys of all it ran:
what a shared machine does not inflate); a summary lists every phase. Exit
status 0 when every phase passed.
USAGE
}

PHASES=()
FAILED=0
cpu_of_children() { # PID
  # cutime + cstime of shell PID (fields 16 and 17 of /proc/PID/stat, after
  # "PID (comm) "): every child it has waited for. Read from /proc because
  # $(times) would report the subshell's own (empty) children.
  local stat
  stat=$(</proc/"$1"/stat)
  read -r -a stat <<<"${stat##*) }"
  echo $(((stat[13] + stat[14]) / $(getconf CLK_TCK)))
}
phase() {
  local name="$1" t0 c0 status=0 line
  shift
  log "== $name"
  t0=$SECONDS
  c0=$(cpu_of_children $$)
  "$@" || status=$?
  line=$(printf '%-48s %-6s wall %4d s  CPU %4d s' "$name" "$( ((status == 0)) && echo ok || echo FAILED)" \
    $((SECONDS - t0)) $(($(cpu_of_children $$) - c0)))
  PHASES+=("$line")
  log "$line"
  ((status == 0)) || FAILED=1
  return $status
}
summary() {
  log "== summary"
  local p
  for p in "${PHASES[@]}"; do log "  $p"; done
  if ((FAILED == 0)); then log "all passed"; else log "FAILED"; fi
  return $FAILED
}

# The preset "debug": clang with ASan+UBSan, the tests and the fuzz targets
# from one build (the test executable depends on the bench and the CLI it runs).
SANITIZE_BUILD="$ROOT/build/debug"
sanitize_build() {
  [[ -f "$SANITIZE_BUILD/CMakeCache.txt" ]] || cmake --preset debug -S "$ROOT" >&2 || return
  cmake --build "$SANITIZE_BUILD" -j "$JOBS" --target wirebench_tests fuzz_targets >&2
}

# Runs the test executable of build directory $1 as JOBS processes that each
# take every JOBS-th test (gtest sharding), with the environment assignments
# that follow. A process per test (ctest's way) starts ~4,000 processes that
# each register every test first, ~85M instructions and ~1,400 page faults
# apiece: several times the suite's own work. The price of sharding: a crash
# or a sanitizer report ends the rest of its shard (the test it stopped in is
# named). A shard still running after 30 min is killed.
shard_tests() {
  local dir logs i pids=() status=0
  dir=$(cd "$1" && pwd) || return
  logs="$dir/test-shards"
  shift
  rm -rf "$logs"
  mkdir -p "$logs"
  for ((i = 0; i < JOBS; ++i)); do
    (cd "$dir" && env "$@" GTEST_TOTAL_SHARDS="$JOBS" GTEST_SHARD_INDEX="$i" \
      timeout --kill-after=30 1800 ./wirebench_tests >"$logs/shard-$i.log" 2>&1) &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      log "shard $((i + 1))/$JOBS: $(grep -a -E '^\[  PASSED  \]' "$logs/shard-$i.log" | tail -n 1)"
    else
      status=1
      log "shard $((i + 1))/$JOBS FAILED (whole log: $logs/shard-$i.log); failed tests and its end:"
      grep -a -E '^\[  FAILED  \] [^0-9]' "$logs/shard-$i.log" | sort -u >&2
      log "last test started: $(grep -a -E '^\[ RUN      \]' "$logs/shard-$i.log" | tail -n 1)"
      tail -n 40 "$logs/shard-$i.log" >&2
    fi
  done
  # Tests that need a third-party corpus skip without WIREBENCH_CORPUS with one
  # line each (tests/test_support.hpp); shown here, so a run without them
  # says what it left out.
  grep -ahE ' skipped: set WIREBENCH_CORPUS ' "$logs"/shard-*.log | sort -u >&2 || true
  # Where the time goes, to keep the CI run inside its budget.
  log "slowest tests:"
  grep -ahE '^\[       OK \] .* \([0-9]+ ms\)$' "$logs"/shard-*.log |
    sed -E 's/^\[       OK \] (.*) \(([0-9]+) ms\)$/\2 ms  \1/' | sort -rn | head -n 5 |
    sed 's/^/    /' >&2 || true
  return $status
}

# glibc's malloc asks for transparent huge pages (madvise) on the blocks it
# maps: the hostile fixtures and what decoders build from them are tens of
# MB, touched afresh by each decoder in its child, and where a 4 KB page fault
# costs 10-20 us huge pages take about 40 % off the Release suite. A kernel
# without THP ignores the advice. Tests only: the benchmarks run with
# tools/heap_tunables.txt.
TEST_TUNABLES="glibc.malloc.hugetlb=1${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}"
# With CTEST ARGS ctest runs them, one process per test. Without, the C++
# suite runs sharded (the Python tools' tests are a phase of their own).
release_tests() {
  if (($# > 0)); then
    (cd "$BUILD" && GLIBC_TUNABLES="$TEST_TUNABLES" ctest --output-on-failure -j "$JOBS" "$@")
    return
  fi
  shard_tests "$BUILD" GLIBC_TUNABLES="$TEST_TUNABLES" GTEST_FILTER="-$WIRE_TESTS"
}
python_tests() { (cd "$BUILD" && ctest --output-on-failure -R '^python_tools$'); }
# The measured wire's tests time real TCP over the emulated link: they run
# alone, after the shards, since a test beside them on the other core delays
# the forwarder by milliseconds. They skip without root.
WIRE_TESTS='Wire.*'
wire_tests() {
  (cd "$BUILD" && ./wirebench_tests --gtest_filter="$WIRE_TESTS") >"$BUILD/wire-tests.log" 2>&1 || {
    tail -n 60 "$BUILD/wire-tests.log" >&2
    return 1
  }
  grep -a -E '^\[  (PASSED|SKIPPED) ' "$BUILD/wire-tests.log" >&2 || true
  # Why a test skipped (no root, or a machine too busy to emulate the link):
  # gtest prints the reason on the line after "FILE:LINE: Skipped".
  awk 'skipped { print "  skipped: " $0; skipped = 0 } /: Skipped$/ { skipped = 1 }' \
    "$BUILD/wire-tests.log" | sort -u >&2
}
SANITIZER_ENV=(ASAN_OPTIONS=detect_leaks=1
  # halt_on_error: every UBSan report fails its test, except fuzz/ubsan.supp's
  # (a library's known UB, recoverable in the preset).
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/fuzz/ubsan.supp")
# The same, sanitized (the Python tools run no C++).
sanitize_tests() {
  if (($# > 0)); then
    (cd "$SANITIZE_BUILD" && env "${SANITIZER_ENV[@]}" \
      ctest --output-on-failure -j "$JOBS" -E '^python_tools$' "$@")
    return
  fi
  # The wire's timing tests are left to the Release run (instrumented code
  # and a busy core miss their 2 % bounds); its teardown tests run here.
  shard_tests "$SANITIZE_BUILD" "${SANITIZER_ENV[@]}" \
    GTEST_FILTER='-Wire.SelfCheck*:Wire.ColdTransfer*:Wire.WarmTransfer*'
}

sanitize="${WIREBENCH_SANITIZE:-1}"
fuzz_seconds="${WIREBENCH_FUZZ_SECONDS:-5}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    --no-sanitize) sanitize=0 ;;
    --fuzz-seconds)
      [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--fuzz-seconds wants a number"
      fuzz_seconds="$2"
      shift
      ;;
    *) break ;; # the rest goes to ctest
  esac
  shift
done
# The tests' targets only: the test executable (with the bench executables and
# the CLI it runs) and the wire's command line; the standalone loops are
# `./wirebench bench`'s.
phase "building (preset release)" build wirebench_tests wirebench_wire || {
  summary
  exit
}
phase "tests (release)" release_tests "$@" || true
if (($# == 0)); then
  phase "tests of the measured wire (alone)" wire_tests || true
  phase "tests of the Python tools" python_tests || true
fi
if [[ "$sanitize" == 1 ]] && phase "building (preset debug: clang, ASan+UBSan)" sanitize_build; then
  phase "tests under ASan+UBSan" sanitize_tests "$@" || true
  if ((fuzz_seconds > 0)); then
    phase "fuzzing ${fuzz_seconds} s per target" env WIREBENCH_SANITIZE_BUILD="$SANITIZE_BUILD" \
      "$ROOT/tools/commands/fuzz.sh" --seconds "$fuzz_seconds" --seed 1 || true
  fi
fi
summary
