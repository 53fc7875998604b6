#!/usr/bin/env bash
# Runs wirebench_bench the way results are published: pinned to one CPU, with
# a heap that is never trimmed, several repetitions, Google Benchmark's JSON
# written atomically to results/<UTC stamp>-<machine>-<commit>.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Big enough that the heap is never trimmed and no payload-sized block is
# mmapped: each iteration then reuses warm pages, as a long-running server does
# (on a VM a first-touched page can cost ~10 us; docs/methodology.md).
# One file, which `wirebench icount` reads too: counts and timings of one heap.
HEAP_TUNABLES="$(<"$ROOT/tools/heap_tunables.txt")"
# The suite runs as one process per band of rows, each band with its own
# minimum time per repetition (benchmarks/band.hpp): cases of up to ~100 rows
# take microseconds and reach thousands of iterations in 0.01 s; the 1,000-row
# cases take 0.1-36 ms and the 8,100-row ones 0.06-280 ms, so they get more
# time, for several iterations per repetition where a case allows it. The
# 8,100-row band keeps 0.1 s: at 0.06 s its slowest cases get one iteration
# per repetition and their medians move with the machine's slow stretches
# (docs/methodology.md, "Noise"). The 1,000-row band's 0.03 s, most of its
# cases still several iterations, keeps the default `./wirebench bench`
# within 10 minutes on a 2-core machine.
# ROWS:MIN_TIME, in the order they run.
DEFAULT_BANDS=("0-999:0.01" "1000-8099:0.03" "8100-:0.1")
# Six repetitions, interleaved at random across the band's benchmarks: with
# 6 against 6 a U-test can reach p = 0.002 and the order-statistic interval of
# a median reaches 95 % (tools/wbtools/stats.py); with 3, p is never below 0.1.
DEFAULT_REPETITIONS=6

usage() {
  cat <<'USAGE'
usage: tools/run_bench.sh BUILD_DIR [OPTIONS] [-- BENCHMARK_ARGS...]

Runs BUILD_DIR/wirebench_bench pinned to one CPU and writes Google Benchmark's
JSON to results/<UTC stamp>-<machine>-<short commit>.json (atomically, never
overwriting), then the JSON conformance matrix beside it (<name>-conformance.json,
`wirebench_cli conformance`; not for --threads runs) and, for a run of the whole
suite (no --filter), wirebench_standalone's loops (<name>-standalone.json: each
library's own loop against our seam, the DOM walk floors) and, with --icount,
callgrind's instruction counts of the atom/science/8100 decode and parse-only
benchmarks (<name>-icount.json, `wirebench icount`, about 3 minutes), then the report.
Prints the result path as the last line of stdout; progress goes to stderr.

options:
  --quick            1 repetition, min time 0.01 s per benchmark, not interleaved
                     (a smoke run)
  --filter REGEX     only benchmarks matching REGEX (--benchmark_filter)
  --cpu N            pin to CPU N (default: the last one, nproc - 1)
  --repetitions N    repetitions per benchmark (default 6); the file keeps every
                     repetition and the aggregates, the console shows aggregates
  --min-time S       one minimum time per repetition for every benchmark, in one
                     process (default: per band of rows, 0.01 s up to 999 rows,
                     0.03 s up to 8,099, 0.1 s from 8,100; context.bands)
  --no-interleave    run each benchmark's repetitions one after the other (default:
                     interleaved at random across the band's benchmarks,
                     --benchmark_enable_random_interleaving=true)
  --full             decode from every serializer at every size (default: every
                     pairing at each dataset's field size -- message/100,
                     airport/101, science/1000 -- and from:reference elsewhere)
  --cold-cache       add decode-cold-cache for every decoder at every size: the
                     input in no CPU cache (copies rotated over twice the
                     last-level cache; docs/methodology.md)
  --scaling          add the scaling families ({format}/message/scaling/{op}/{codec}/N,
                     N = 10 ... 10,000, Complexity(oN)) to this pinned run
  --no-fastbins      add glibc.malloc.mxfast=0 to the heap tunables: no fastbins,
                     so no malloc_consolidate passes inside a timed iteration.
                     Those make libxml2 on 8 MB documents bimodal (65 or 125 ms
                     per parse); without fastbins it is steady, but the WCF infoset
                     over libxml2 runs 16-31 % slower on small documents
                     (docs/methodology.md)
  --icount           add callgrind's instruction counts of the atom/science/8100
                     decode and parse-only benchmarks (about 3 minutes; left out
                     by default to keep the default run within 10 minutes)
  --threads          run only the concurrent-client benchmarks (1, 2, 4 threads,
                     wall clock) UNPINNED, into results/<...>-threads.json; the
                     default run stays pinned to one CPU and leaves them out
  -h, --help         this text
  -- ARGS            passed to wirebench_bench as they are, e.g.
                     -- --benchmark_list_tests=true (lists, writes no file)

environment: WIREBENCH_SEED (dataset seed, default 42)
USAGE
}

die() {
  printf 'run_bench: error: %s\n' "$*" >&2
  exit 2
}

[[ $# -ge 1 ]] || {
  usage >&2
  exit 2
}
case "$1" in -h | --help)
  usage
  exit 0
  ;;
esac
BUILD="$1"
shift
EXE="$BUILD/wirebench_bench"
# The memory figures come from a run of their own, of an executable that
# interposes malloc (CMakeLists.txt says why the timed one does not).
MEMORY_EXE="$BUILD/wirebench_bench_memory"

repetitions=$DEFAULT_REPETITIONS
bands=("${DEFAULT_BANDS[@]}")
filter=""
cpu=$(($(nproc) - 1))
interleave=1
threads=0
scaling=0
cold_cache=0
icount=0
every_pairing=0
quick=0
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    --quick) quick=1 ;;
    --filter)
      [[ $# -ge 2 ]] || die "--filter needs a REGEX"
      filter="$2"
      shift
      ;;
    --filter=*) filter="${1#*=}" ;;
    --cpu)
      [[ $# -ge 2 ]] || die "--cpu needs a CPU number"
      cpu="$2"
      shift
      ;;
    --cpu=*) cpu="${1#*=}" ;;
    --repetitions)
      [[ $# -ge 2 ]] || die "--repetitions needs a number"
      repetitions="$2"
      shift
      ;;
    --repetitions=*) repetitions="${1#*=}" ;;
    --no-interleave) interleave=0 ;;
    --min-time)
      [[ $# -ge 2 ]] || die "--min-time needs seconds"
      bands=("0-:$2")
      shift
      ;;
    --min-time=*) bands=("0-:${1#*=}") ;;
    --threads) threads=1 ;;
    --scaling) scaling=1 ;;
    --cold-cache) cold_cache=1 ;;
    --icount) icount=1 ;;
    --full) every_pairing=1 ;;
    --no-fastbins) HEAP_TUNABLES="$HEAP_TUNABLES:glibc.malloc.mxfast=0" ;;
    --)
      shift
      extra=("$@")
      break
      ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ "$cpu" =~ ^[0-9]+$ ]] || die "--cpu wants a CPU number, got '$cpu'"
[[ "$repetitions" =~ ^[1-9][0-9]*$ ]] || die "--repetitions wants a positive number, got '$repetitions'"
[[ -x "$EXE" ]] || die "no benchmark executable at $EXE (build first: ./wirebench build)"
[[ -x "$MEMORY_EXE" ]] || die "no memory executable at $MEMORY_EXE (build first: ./wirebench build)"
command -v taskset >/dev/null || die "taskset not found (package util-linux)"
if ((quick)); then
  repetitions=1
  bands=("0-:0.01")
  interleave=0
fi
for band in "${bands[@]}"; do
  [[ "${band#*:}" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--min-time wants seconds, got '${band#*:}'"
done

# Listing (or any other non-run request) writes no result file: run it as is.
for arg in "${extra[@]}"; do
  case "$arg" in
    --benchmark_list_tests | --benchmark_list_tests=true | --benchmark_list_tests=1 | --help | -h)
      exec "$EXE" "${extra[@]}"
      ;;
  esac
done

# The commit goes into the file name (short) and the context (full, with
# "-dirty" when tracked files differ from it: such a result is not reproducible
# from the commit alone).
commit=unknown short=unknown
if full=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null); then
  commit=$full
  short=$(git -C "$ROOT" rev-parse --short HEAD)
  [[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]] || commit="$full-dirty"
fi
# The machine is named by its CPU model (wbtools/machine.py): amd-epyc-f26m2.
machine=$(PYTHONPATH="$ROOT/tools" /usr/bin/python3 -m wbtools.machine 2>/dev/null || echo unknown-cpu)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results="$ROOT/results"
mkdir -p "$results"

tmp=$(mktemp "$results/.run-XXXXXX.tmp")
parts_dir=$(mktemp -d "$results/.parts-XXXXXX.tmp")
run_pid=""
cleanup() { rm -rf "$tmp" "$parts_dir"; }
# The benchmark runs in the background so that an interrupt stops it at once
# (rather than after it finishes) and the partial file is removed.
on_signal() {
  if [[ -n "$run_pid" ]]; then
    kill "$run_pid" 2>/dev/null || true
    wait "$run_pid" 2>/dev/null || true
  fi
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# What selects the benchmarks: the timed bands and the memory run share it.
selection=(--benchmark_out_format=json)
[[ -n "$filter" ]] && selection+=(--benchmark_filter="$filter")
((scaling)) && selection+=(--wirebench_scaling)
((cold_cache)) && selection+=(--wirebench_cold_cache)
((every_pairing)) && selection+=(--wirebench_full)
common=(
  "${selection[@]}"
  --benchmark_repetitions="$repetitions"
  --benchmark_report_aggregates_only=false
  --benchmark_display_aggregates_only=true
)
((interleave)) && common+=(--benchmark_enable_random_interleaving=true)
# Thread runs are unpinned (N threads on one CPU would measure the scheduler);
# the context's cpu_pinned and run_kind fields say so in the file.
pin=(taskset -c "$cpu")
if ((threads)); then
  pin=()
  common+=(--wirebench_threads)
  bands=("0-:${bands[0]#*:}")
fi
band_args() {  # the arguments of one band's process
  local band=$1
  local args=(--benchmark_min_time="${band#*:}")
  [[ "${band%%:*}" == "0-" ]] || args+=(--wirebench_rows="${band%%:*}")
  printf '%s\n' "${args[@]}"
}
# How many benchmarks each band holds under the filter: empty bands are not
# run, and the progress line counts against the total.
counts=()
total=0
for band in "${bands[@]}"; do
  mapfile -t band_extra < <(band_args "$band")
  n=$("$EXE" --benchmark_list_tests=true "${common[@]}" "${band_extra[@]}" "${extra[@]}" 2>/dev/null | wc -l)
  counts+=("$n")
  total=$((total + n))
done
((total > 0)) || die "no benchmark matches${filter:+ the filter '$filter'}"
printf 'run_bench: %s benchmarks; %s%s repetition(s)%s; bands (rows:min time s) %s; GLIBC_TUNABLES=%s\n' \
  "$total" "$( ((threads)) && echo "UNPINNED thread benchmarks, " || echo "CPU $cpu, ")" \
  "$repetitions" "$( ((interleave)) && echo ", interleaved")" "${bands[*]}" "$HEAP_TUNABLES" >&2
# The machine's state before and after (wbtools/machine_state.py): recorded in
# the context, with a warning now when it makes the figures suspect.
PYTHONPATH="$ROOT/tools" /usr/bin/python3 -m wbtools.machine_state --cpu "$cpu" \
  >"$parts_dir/state-before.json" || die "cannot read the machine's state"
start=$SECONDS
# Google Benchmark's console output goes to stderr. On a terminal, a progress
# line (benchmarks done / total, elapsed, estimate) follows every 20 finished
# benchmarks; in CI or a log file the output stays as it is.
progress() {
  # A finished benchmark prints its _median line (or, with one repetition, its
  # only result line: a name with a "/" followed by a time).
  awk -v total="$total" -v done="$1" -v t0="$2" -v every=20 -v reps="$repetitions" '
    { print; fflush() }
    (reps > 1 && /_median /) || (reps == 1 && /^[^ ]+\/[^ ]* +[0-9.]+ [num]?s /) {
      done++
      if (done % every == 0 || done == total) {
        el = systime() - t0; left = done ? el * (total - done) / done : 0
        printf "[wirebench] %d/%d benchmarks, %dm%02ds elapsed, ~%dm%02ds left\n",
          done, total, el / 60, el % 60, left / 60, left % 60
        fflush()
      }
    }'
}
parts=()
finished=0
t0=$(date +%s)
for i in "${!bands[@]}"; do
  band=${bands[$i]}
  ((counts[i] > 0)) || continue
  mapfile -t band_extra < <(band_args "$band")
  part="$parts_dir/part-$i.json"
  printf 'run_bench: rows %s, min time %s s: %s benchmarks\n' "${band%%:*}" "${band#*:}" "${counts[$i]}" >&2
  run=("$EXE" --benchmark_out="$part" "${common[@]}" "${band_extra[@]}" "${extra[@]}")
  if [[ -t 2 ]]; then
    GLIBC_TUNABLES="$HEAP_TUNABLES" WIREBENCH_COMMIT="$commit" \
      "${pin[@]}" "${run[@]}" 2>&1 | progress "$finished" "$t0" >&2 &
  else
    GLIBC_TUNABLES="$HEAP_TUNABLES" WIREBENCH_COMMIT="$commit" "${pin[@]}" "${run[@]}" >&2 &
  fi
  run_pid=$!
  status=0
  wait "$run_pid" || status=$?
  run_pid=""
  ((status == 0)) || die "wirebench_bench failed on rows ${band%%:*} (exit $status); no result file written"
  parts+=("$part:${band%%:*}:${band#*:}")
  finished=$((finished + counts[i]))
done
PYTHONPATH="$ROOT/tools" /usr/bin/python3 -m wbtools.machine_state --cpu "$cpu" \
  >"$parts_dir/state-after.json" || die "cannot read the machine's state"
# The memory figures: every benchmark once more, in wirebench_bench_memory, one
# repetition of one iteration (1e-9 s): its MemoryManager measures one call
# after it (benchmarks/memory.cpp), which is all the run is for. Thread runs
# have no memory figures.
memory_args=()
if ((!threads)); then
  printf 'run_bench: memory figures (%s, one call per benchmark)\n' "${MEMORY_EXE##*/}" >&2
  run=("$MEMORY_EXE" --benchmark_out="$parts_dir/memory.json" "${selection[@]}"
    --benchmark_repetitions=1 --benchmark_min_time=1e-9 "${extra[@]}")
  GLIBC_TUNABLES="$HEAP_TUNABLES" WIREBENCH_COMMIT="$commit" "${pin[@]}" "${run[@]}" \
    >/dev/null 2>"$parts_dir/memory.log" &
  run_pid=$!
  status=0
  wait "$run_pid" || status=$?
  run_pid=""
  if ((status != 0)); then
    tail -n 20 "$parts_dir/memory.log" >&2
    die "${MEMORY_EXE##*/} failed (exit $status); no result file written"
  fi
  memory_args=(--memory "$parts_dir/memory.json")
fi
PYTHONPATH="$ROOT/tools" /usr/bin/python3 -m wbtools.merge "$tmp" "${parts[@]}" "${memory_args[@]}" \
  --state-before "$parts_dir/state-before.json" --state-after "$parts_dir/state-after.json" ||
  die "cannot merge the bands' results"
printf 'run_bench: finished in %d s\n' "$((SECONDS - start))" >&2

# Publish without ever overwriting: link(2) fails if the name exists.
chmod 644 "$tmp"  # mktemp makes it private; a result is for everyone to read
base="$results/$stamp-$machine-$short"
((threads)) && base="$base-threads"
final="$base.json"
n=1
until ln "$tmp" "$final" 2>/dev/null; do
  final="$base-$n.json"
  n=$((n + 1))
  ((n < 100)) || die "cannot create a result file next to $base.json"
done
rm -f "$tmp"
# Noise: list the cases whose CV over the repetitions is above 5 % (a warning,
# not a failure: on a shared VM some noise is expected, but a comparison of
# such cases needs compare.py's U-test or a rerun).
PYTHONPATH="$ROOT/tools" /usr/bin/python3 -m wbtools.noise "$final" >&2 || true
# The JSON conformance matrix (docs/conformance.md) beside the result, where
# `wirebench report` finds it. Exit 1 means a parser crashed or a decoder took
# invalid JSON: a finding for the report, not a reason to drop the result.
if ((!threads)); then
  conformance_status=0
  "$BUILD/wirebench_cli" conformance --json "${final%.json}-conformance.json" >&2 ||
    conformance_status=$?
  case $conformance_status in
    0) ;;
    1) printf 'run_bench: conformance: crashes or invalid JSON decoded, see the table above\n' >&2 ;;
    *) printf 'run_bench: conformance matrix not written (exit %s)\n' "$conformance_status" >&2 ;;
  esac
  # The standalone loops beside the result (<name>-standalone.json): each
  # library's own minimal loop against our seam, and the floors under decode +
  # bind for the DOMs without namespace support, on the same build and CPU,
  # repetitions interleaved (about 30 s). Only with the whole suite: a
  # filtered run is a question about its own benchmarks.
  if [[ -z "$filter" && -x "$BUILD/wirebench_standalone" ]]; then
    standalone_reps=6 standalone_min=0.15
    ((quick)) && standalone_reps=1 standalone_min=0.01
    printf 'run_bench: standalone loops, %s repetition(s) interleaved\n' "$standalone_reps" >&2
    GLIBC_TUNABLES="$HEAP_TUNABLES" "${pin[@]}" "$BUILD/wirebench_standalone" \
      --benchmark_repetitions="$standalone_reps" --benchmark_min_time="$standalone_min" \
      --benchmark_enable_random_interleaving=true --benchmark_display_aggregates_only=true \
      --benchmark_out="${final%.json}-standalone.json" --benchmark_out_format=json >&2 ||
      printf 'run_bench: standalone loops failed; no %s\n' "${final%.json}-standalone.json" >&2
  fi
  # Instruction counts beside the result (<name>-icount.json, callgrind, about
  # 3 minutes): the decode + bind against parse-only ratios of the XML parsers,
  # without the machine's noise, on the same build and heap. One call each: a count
  # repeats to within 0.01 %. With --icount and the whole suite.
  if [[ -z "$filter" ]] && ((icount)) && ! command -v valgrind >/dev/null; then
    printf 'run_bench: --icount needs valgrind (package valgrind); no instruction counts\n' >&2
  elif [[ -z "$filter" ]] && ((icount)); then
    printf 'run_bench: instruction counts (callgrind) of the atom/science/8100 decode and parse-only\n' >&2
    GLIBC_TUNABLES="$HEAP_TUNABLES" /usr/bin/python3 "$ROOT/tools/icount.py" --build "$BUILD" \
      --repetitions 1 --timing "$final" \
      --filter '^atom/science/8100/(decode/[^/]+/from:reference|parse-only/[^/]+)$' >&2 ||
      printf 'run_bench: instruction counts failed; no %s\n' "${final%.json}-icount.json" >&2
  fi
  # The report beside the result (results/<name>/REPORT.md and charts). A
  # failing report never loses the result: it can be rerun with `wirebench report`.
  /usr/bin/python3 "$ROOT/tools/report.py" "$final" >&2 ||
    printf 'run_bench: report not written; run ./wirebench report %s\n' "$final" >&2
fi
echo "$final"
