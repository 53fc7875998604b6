#!/usr/bin/env bash
# `./wirebench bench`: runs wirebench_bench the way results are published:
# pinned to one CPU, with a heap that is never trimmed, several repetitions,
# Google Benchmark's JSON written atomically to
# results/<UTC stamp>-<machine>-<commit>.json, then the steps beside it.
#
# The run, in order: list what each band of rows holds under the filter;
# time each band that holds something; the memory run; merge the parts into
# one result file; then noise, conformance, the standalone loops and
# instruction counts where the run calls for them, the report, and a summary
# on screen. Each step is one function below.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=tools/lib.sh
source "$ROOT/tools/lib.sh"
# Big enough that the heap is never trimmed and no payload-sized block is
# mmapped: each iteration then reuses warm pages, as a long-running server does
# (on a VM a first-touched page can cost ~10 us; docs/methodology.md).
# One file, which `wirebench icount` reads too: counts and timings of one heap.
HEAP_TUNABLES="$(<"$ROOT/tools/heap_tunables.txt")"
# The suite runs as one process per band of rows, each band with its own
# minimum time per repetition and number of rounds (benchmarks/band.hpp,
# benchmarks/rounds.hpp). A round times every competitor of one unit (a
# dataset at one size, in every format) once, back to back, in a fresh random
# order, with the unit's probe between every few: the machine's slow windows,
# some shorter than a second, then move a round's competitors and probes
# together, and the figures come from the per-round ratios to the probe
# (tools/wbtools/results/paired.py). So repetitions are short and rounds many rather
# than repetitions long: cases of up to ~100 rows take microseconds and reach
# hundreds of iterations in 0.003 s, the 1,000-row cases take 0.1-36 ms and
# the 8,100-row ones 0.06-300 ms (one iteration a round for the slowest).
# Every band runs 6 rounds, the fewest that give a 95 % interval (the sign
# test's [min, max]; 8 give the same order statistics at 99.2 %, no
# narrower), and racing settles the competitors that clearly lost after 3.
# The minimum times were halved in the two larger bands when racing came:
# what is left of a run is the contenders' rounds, min-time-bound when a
# call is short, and a round's ratio to the probe beside it moves no more
# (docs/methodology.md, "Racing"). The default `./wirebench bench` stays
# within 8 minutes on a 2-core machine.
# ROWS:MIN_TIME:ROUNDS, in the order they run.
DEFAULT_BANDS=("0-999:0.003:6" "1000-8099:0.005:6" "8100-:0.015:6")
# Without rounds (--no-rounds): ROWS:MIN_TIME, six repetitions interleaved at
# random across the band's benchmarks: with 6 against 6 a U-test can reach
# p = 0.002 and the order-statistic interval of a median reaches 95 %
# (tools/wbtools/stats.py); with 3, p is never below 0.1.
CLASSIC_BANDS=("0-999:0.01" "1000-8099:0.03" "8100-:0.1")
DEFAULT_REPETITIONS=6
# A progress line at most this often, in seconds: a focused run ends first.
PROGRESS_EVERY=15

usage() {
  cat <<'USAGE'
usage: ./wirebench bench [OPTIONS] [-- BENCHMARK_ARGS...]
       (tools/commands/bench.sh BUILD_DIR [OPTIONS]: the same, on a build of your choice)

Builds, then runs wirebench_bench pinned to one CPU and writes Google Benchmark's
JSON to results/<UTC stamp>-<machine>-<short commit>.json (atomically, never
overwriting). The suite runs as one process per band of rows, each payload's
benchmarks side by side in rounds; a band that holds no benchmark of the run is
skipped. Then, beside the result: the memory figures
(one call of every benchmark in wirebench_bench_memory), the JSON conformance
matrix (<name>-conformance.json, when the run times a JSON decoder or is the
whole suite), for the whole suite wirebench_standalone's loops
(<name>-standalone.json) and with --icount callgrind's instruction counts
(<name>-icount.json), then the report (<name>/report.html and REPORT.md).
On screen: each benchmark's median as its payload's rounds finish, a progress line on long
runs, then the noise, the conformance of the run's JSON decoders and, for a
focused run, its competitors side by side with their ratios and intervals.
The result path is the last line of stdout; everything else goes to stderr.

Example, two decoders of one payload (about a minute with the build current):
  ./wirebench bench --filter '^json/message/100/decode/(rapidjson-dom|simdjson-dom)/from:reference$'

options:
  --filter REGEX     only benchmarks matching REGEX (--benchmark_filter); one that
                     matches nothing is an error
  --quick            1 repetition, min time 0.01 s per benchmark, no rounds, not
                     interleaved (a smoke run)
  --cpu N            pin to CPU N (default: the last one, nproc - 1)
  --repetitions N    rounds per band (default 6), or with
                     --no-rounds repetitions per benchmark (default 6); the file keeps
                     every repetition and the aggregates, the screen shows medians
  --min-time S       one minimum time per repetition for every benchmark, in one
                     process (default: per band of rows, 0.003 s up to 999 rows,
                     0.005 s up to 8,099, 0.015 s from 8,100; without rounds 0.01,
                     0.03 and 0.1 s; context.bands)
  --no-rounds        no rounds: Google Benchmark's repetitions, interleaved at random
                     across each band's benchmarks (the design before rounds; no
                     paired figures). Default: each unit (a dataset at one size, every
                     format) in rounds, every competitor once a round in a fresh random
                     order with the unit's probe between every few; figures from the
                     per-round ratios to the probe (docs/methodology.md, "Rounds,
                     bands and intervals")
  --no-race          every competitor runs every round (the reference the racing default
                     is held to). Default: racing: after 3 rounds a competitor that has
                     clearly lost its comparison is settled and takes no more rounds
                     (benchmarks/race.hpp; docs/methodology.md, "Racing")
  --no-interleave    with --no-rounds: each benchmark's repetitions one after the other
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
                     decode and parse-only benchmarks (about 3 minutes; the whole
                     suite only; left out by default to keep the run within 10 minutes)
  --threads          run only the concurrent-client benchmarks (1, 2, 4 threads,
                     wall clock) UNPINNED, into results/<...>-threads.json; the
                     default run stays pinned to one CPU and leaves them out
  --out-dir DIR      write the result and its report into DIR (default: results/)
  --payload FILE...  time your own files instead of the suite's datasets: each FILE
                     (a folder: every file in it) is a payload in its own right,
                     named {format}/file:{name}/{bytes}/... in the result. Its kind
                     comes from its content (wirebench_cli payload-kind): JSON is
                     parsed (parse-only) by every JSON parser, XML by every XML
                     parser, an OData feed is also decoded into entity rows by every
                     decoder of its format; every compressor both ways, with sizes.
                     First every parser runs once over each file in a sandboxed
                     child: the verdict (<name>-verdict.json; accepted, or rejected
                     with the library's error and offset, and who reads it
                     differently); a library that rejects a file is not timed on it.
                     One band (min time 0.01 s, 6 rounds); run_scope "payload": never
                     a machine's published run. An empty, binary (NUL byte) or
                     neither-JSON-nor-XML file, or one over 1 GiB: one line naming it,
                     exit 2. docs/payload.md
  --as-formats       with --payload: each OData feed's rows also in every other format
                     that carries them (the other OData dialects; binary formats through
                     a schema made from the feed's EDM types), every encoder and decoder
                     of each, each encoding read back and checked first, with its sizes;
                     a format that cannot carry the rows says which type and why.
                     docs/payload.md, "As other formats"
  --format KIND      with --payload: take every file as KIND (json, xml, or an OData
                     feed format: json-verbose, json-v4, atom, atom-v2, odata:json)
  -h, --help         this text
  -- ARGS            passed to wirebench_bench as they are, e.g.
                     -- --benchmark_list_tests=true (lists, writes no file)

Each band's whole output is kept in BUILD_DIR/bench-rows-<band>.log.
Exit status: 0 with a result written; 1 when a band or the memory run failed
(no result written: the message names the band and shows its last lines); 2 on
a bad request, a filter that matches nothing, or a missing build.
environment: WIREBENCH_SEED (dataset seed, default 42)
USAGE
}

# ---- the request ----------------------------------------------------------

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
repetitions_given=0
bands=("${DEFAULT_BANDS[@]}")
bands_given=0
rounds=1
race=1
filter=""
cpu=$(($(nproc) - 1))
interleave=1
threads=0
scaling=0
cold_cache=0
icount=0
every_pairing=0
quick=0
out_dir="$ROOT/results"
extra=()
payload_args=()
payload_format=""
as_formats=0
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
      repetitions_given=1
      shift
      ;;
    --repetitions=*)
      repetitions="${1#*=}"
      repetitions_given=1
      ;;
    --no-interleave)
      interleave=0
      rounds=0
      ;;
    --no-rounds) rounds=0 ;;
    --no-race) race=0 ;;
    --min-time)
      [[ $# -ge 2 ]] || die "--min-time needs seconds"
      bands=("0-:$2")
      bands_given=1
      shift
      ;;
    --min-time=*)
      bands=("0-:${1#*=}")
      bands_given=1
      ;;
    --threads) threads=1 ;;
    # The scaling families are one Google Benchmark family per codec over
    # several sizes, which no unit of rounds holds.
    --scaling) scaling=1 ;;
    --cold-cache) cold_cache=1 ;;
    --icount) icount=1 ;;
    --full) every_pairing=1 ;;
    --no-fastbins) HEAP_TUNABLES="$HEAP_TUNABLES:glibc.malloc.mxfast=0" ;;
    --out-dir)
      [[ $# -ge 2 ]] || die "--out-dir needs a folder"
      out_dir="$2"
      shift
      ;;
    --out-dir=*) out_dir="${1#*=}" ;;
    --payload)
      [[ $# -ge 2 && "$2" != --* ]] || die "--payload needs a FILE or folder"
      while [[ $# -ge 2 && "$2" != --* ]]; do
        payload_args+=("$2")
        shift
      done
      ;;
    --format)
      [[ $# -ge 2 ]] || die "--format needs a KIND"
      payload_format="$2"
      shift
      ;;
    --format=*) payload_format="${1#*=}" ;;
    --as-formats) as_formats=1 ;;
    --)
      shift
      extra=("$@")
      break
      ;;
    *) die "unknown option '$1' (./wirebench bench --help lists them)" ;;
  esac
  shift
done
[[ "$cpu" =~ ^[0-9]+$ ]] || die "--cpu wants a CPU number, got '$cpu'"
[[ "$repetitions" =~ ^[1-9][0-9]*$ ]] || die "--repetitions wants a positive number, got '$repetitions'"
[[ -x "$EXE" ]] || die "no benchmark executable at $EXE (build first: ./wirebench build)"
[[ -x "$MEMORY_EXE" ]] || die "no memory executable at $MEMORY_EXE (build first: ./wirebench build)"
[[ -z "$payload_format" || ${#payload_args[@]} -gt 0 ]] || die "--format goes with --payload"
((!as_formats || ${#payload_args[@]})) || die "--as-formats goes with --payload"

# ---- a user's own files (--payload) -------------------------------------------

# The files of --payload, a folder's (not its hidden ones) in name order, each
# with its kind ("KIND:PATH", wirebench_cli payload-kind). A file that is no
# payload has had its one line on stderr: the run stops with exit 2.
payload_specs=()
if ((${#payload_args[@]})); then
  payload_files=()
  for arg in "${payload_args[@]}"; do
    if [[ -d "$arg" ]]; then
      mapfile -t found < <(find "$arg" -type f ! -name '.*' | LC_ALL=C sort)
      ((${#found[@]})) || die "--payload $arg: no files in the folder"
      payload_files+=("${found[@]}")
    else
      payload_files+=("$arg")
    fi
  done
  kind_args=()
  [[ -n "$payload_format" ]] && kind_args=(--format "$payload_format")
  kinds=$("$BUILD/wirebench_cli" payload-kind "${kind_args[@]}" "${payload_files[@]}") || exit 2
  mapfile -t payload_specs <<<"$kinds"
  # One band for every file: a case's "rows" are its bytes, and every case
  # of a few MB runs in a few ms, which 0.01 s a repetition sizes well.
  ((bands_given)) || bands=("0-:0.01:6")
fi
command -v taskset >/dev/null || die "taskset not found (package util-linux)"
if ((quick)); then
  repetitions=1
  bands=("0-:0.01")
  interleave=0
fi
((quick || threads || scaling)) && rounds=0
if ((!rounds)) && ((!bands_given && !quick)); then
  bands=("${CLASSIC_BANDS[@]}")
fi
# Each band as ROWS:MIN_TIME:ROUNDS in rounds (--repetitions N: N rounds each).
if ((rounds)); then
  for i in "${!bands[@]}"; do
    IFS=: read -r band_low band_time band_count <<<"${bands[$i]}"
    ((repetitions_given)) || [[ -z "$band_count" ]] || repetitions=$band_count
    bands[$i]="$band_low:$band_time:$repetitions"
  done
fi
for band in "${bands[@]}"; do
  IFS=: read -r _ band_time _ <<<"$band"
  [[ "$band_time" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--min-time wants seconds, got '$band_time'"
done
# What selects the benchmarks: the listing, the timed bands and the memory
# run share it.
selection=(--benchmark_out_format=json)
[[ -n "$filter" ]] && selection+=(--benchmark_filter="$filter")
((scaling)) && selection+=(--wirebench_scaling)
((cold_cache)) && selection+=(--wirebench_cold_cache)
((every_pairing)) && selection+=(--wirebench_full)
for spec in "${payload_specs[@]}"; do selection+=(--wirebench_payload="$spec"); done
((as_formats)) && selection+=(--wirebench_as_formats)
for arg in "${extra[@]}"; do
  case "$arg" in
    # Listing (or any other non-run request) writes no result file: run it as is.
    --benchmark_list_tests | --benchmark_list_tests=true | --benchmark_list_tests=1 | --help | -h)
      exec "$EXE" "${selection[@]}" "${extra[@]}"
      ;;
  esac
done
# A focused run is a question about its own benchmarks: the steps that
# describe the whole suite (standalone loops, instruction counts) leave it be.
# Which a run is, the executable says (benchmarks/scope.hpp), as it says in
# the result's run_scope.
scope_args=("${selection[@]}" "${extra[@]}")
((threads)) && scope_args+=(--wirebench_threads)
scope=$("$EXE" --wirebench_scope "${scope_args[@]}") ||
  die "cannot tell the run's scope: ${EXE##*/} --wirebench_scope failed"
whole_suite=0
[[ "$scope" == whole ]] && whole_suite=1
((icount && !whole_suite)) &&
  log "--icount counts the whole suite's atom/science/8100 decoders: left out of a focused run"
common=("${selection[@]}" --benchmark_color=false)
if ((!rounds)); then
  common+=(--benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=false
    --benchmark_display_aggregates_only=true)
  ((interleave)) && common+=(--benchmark_enable_random_interleaving=true)
fi
# Thread runs are unpinned (N threads on one CPU would measure the scheduler);
# the context's cpu_pinned and run_kind fields say so in the file.
pin=(taskset -c "$cpu")
if ((threads)); then
  pin=()
  common+=(--wirebench_threads)
  bands=("0-:${bands[0]#*:}")
fi

# ---- the bands --------------------------------------------------------------

band_rows() { printf '%s' "${1%%:*}"; }
band_min_time() { local rest=${1#*:}; printf '%s' "${rest%%:*}"; }
# A band's rounds, or its repetitions without rounds.
band_rounds() { if ((rounds)); then printf '%s' "${1##*:}"; else printf '%s' "$repetitions"; fi; }
band_title() {
  printf 'rows %s (min time %s s' "$(band_rows "$1")" "$(band_min_time "$1")"
  ((rounds)) && printf ', %s rounds' "$(band_rounds "$1")"
  printf ')'
}
# The arguments of one band's process, one a line.
band_args() {
  printf '%s\n' --benchmark_min_time="$(band_min_time "$1")"
  ((rounds)) && printf '%s\n' --wirebench_rounds="$(band_rounds "$1")"
  ((rounds && !race)) && printf '%s\n' --wirebench_no_race
  [[ "$(band_rows "$1")" == "0-" ]] || printf '%s\n' --wirebench_rows="$(band_rows "$1")"
}

# Writes the names of the benchmarks band $1 holds under the selection into
# file $2, empty when it holds none. Google Benchmark exits 1 both when
# nothing matches and on a real failure (a regex it cannot compile): its
# message tells them apart.
list_band() {
  local band=$1 out=$2 status=0 band_extra
  mapfile -t band_extra < <(band_args "$band")
  "$EXE" --benchmark_list_tests=true "${common[@]}" "${band_extra[@]}" "${extra[@]}" \
    >"$out" 2>"$out.err" || status=$?
  if ((status != 0)); then
    grep -q '^Failed to match any benchmarks' "$out.err" && { : >"$out"; return 0; }
    die "cannot list the benchmarks of $(band_title "$band"): ${EXE##*/} exited with" \
      "status $status: $(tail -n 3 "$out.err" | tr '\n' ' ')"
  fi
}

# Why a process ended with exit status $1: "status N" or "killed by SIGNAME".
exit_reason() {
  if (($1 > 128)) && kill -l $(($1 - 128)) >/dev/null 2>&1; then
    printf 'killed by SIG%s' "$(kill -l $(($1 - 128)))"
  else
    printf 'exit status %s' "$1"
  fi
}

# Fails the run for a process that failed: which, why, its last lines and the
# whole log's path. No result file is written.
fail_step() {
  local what=$1 status=$2 logfile=$3
  printf 'wirebench: error: %s failed (%s); its last lines:\n' "$what" "$(exit_reason "$status")" >&2
  tail -n 15 "$logfile" | sed 's/^/  /' >&2
  printf 'wirebench: error: no result file written (whole output: %s)\n' "$logfile" >&2
  exit 1
}

# The screen's share of Google Benchmark's console output: its header and one
# line per finished benchmark (the median with repetitions), errors, and any
# line of ours; not its context, which opens every band with the labels of
# every codec and the versions of every library (the result file keeps them),
# nor the mean, stddev and cv lines (the file keeps those too; 1.7.1's cv of a
# counter that is 0 in every repetition, minflt_per_iter, divides 0 by 0 and
# prints -nan%). The Debian library's "built as DEBUG" warning becomes the
# one line DEBUG_NOTE, once. At most every PROGRESS_EVERY seconds, a progress
# line: in rounds the band's process says where it is and what is left of it,
# estimated from its rounds so far (benchmarks/rounds.cpp); without rounds,
# how many benchmarks finished, with no estimate (a benchmark's time is not
# known before it runs).
DEBUG_NOTE="wirebench: note: \"Library was built as DEBUG\" is Debian's libbenchmark 1.7.1,"
DEBUG_NOTE+=" built -O2 with its assertions on; they run once per batch of iterations, outside"
DEBUG_NOTE+=" the timed loop, which is our Release code: times are unaffected"
# mawk (Debian's awk) reads a pipe in blocks: without -W interactive it sees a
# round's progress line only when a block fills, minutes later, and judges
# every line's time by then.
AWK_LINES=(awk)
awk -W version 2>/dev/null | grep -q mawk && AWK_LINES=(awk -W interactive)
console_filter() {
  "${AWK_LINES[@]}" -v note="$1" -v band="$2" -v total="$3" -v done="$4" -v t0="$5" -v reps="$repetitions" \
    -v every="$PROGRESS_EVERY" '
    BEGIN { last = systime() }
    function due() { if (systime() - last < every) return 0; last = systime(); return 1 }
    function finished() {
      done++
      if (due() && done < total) {
        el = systime() - t0
        printf "wirebench: %d/%d benchmarks, %dm%02ds elapsed\n", done, total, el / 60, el % 60
      }
    }
    !table {
      if (/Library was built as DEBUG/) { if (note != "") print note; next }
      if (/^-+$/) table = 1; else next
    }
    /^progress: / { if (due()) { sub(/^progress: /, ""); printf "wirebench: %s: %s\n", band, $0; fflush() }; next }
    /ERROR OCCURRED/ { print; fflush(); finished(); next }
    $1 ~ /_(mean|stddev|cv)$/ { next }
    $1 ~ /_median$/ { print; fflush(); finished(); next }
    reps == 1 && /^[^ ]+\/[^ ]* +[0-9.]+ [num]?s / { print; fflush(); finished(); next }
    { print; fflush() }'
}

# Runs band $1 (index $2 of the run) into part file $3 and its log; the
# console shows the filtered output. Its process runs in the background, so
# that an interrupt stops it at once (on_signal) and the partial file goes.
run_band() {
  local band=$1 index=$2 part=$3 band_extra status=0 logfile filter_pid note=""
  logfile="$BUILD/bench-rows-$(band_rows "$band").log"
  mapfile -t band_extra < <(band_args "$band")
  log "$(band_title "$band"): ${counts[$index]} benchmarks"
  ((index == first_band)) && note=$DEBUG_NOTE
  # The log exists, empty, before tail follows it and the run appends to it:
  # a missing one would leave tail with no file, and a stale one would show
  # the last run's lines and then this one's unfiltered after the truncation.
  : >"$logfile"
  # stdbuf: Google Benchmark's table goes to stdout, which a file buffers by
  # the page; line by line, the screen follows the run.
  GLIBC_TUNABLES="$HEAP_TUNABLES" WIREBENCH_COMMIT="$commit" "${pin[@]}" stdbuf -oL \
    "$EXE" --benchmark_out="$part" "${common[@]}" "${band_extra[@]}" "${extra[@]}" \
    >>"$logfile" 2>&1 &
  run_pid=$!
  tail -n +1 -s 0.2 -f --pid="$run_pid" "$logfile" |
    console_filter "$note" "band $((index + 1))/${#bands[@]}, $(band_title "$band")" "$total" \
      "$finished" "$t0" >&2 &
  filter_pid=$!
  wait "$run_pid" || status=$?
  run_pid=""
  wait "$filter_pid" || true
  ((status == 0)) || fail_step "${EXE##*/} on $(band_title "$band")" "$status" "$logfile"
}

# The memory figures: every benchmark once more, in wirebench_bench_memory, one
# repetition of one iteration (1e-9 s): its MemoryManager measures one call
# after it (benchmarks/memory.cpp), which is all the run is for. Allocation
# counts do not depend on the CPU's speed, so the bands' memory runs go side
# by side on every CPU once the timing is over (--wirebench_memory_run: no
# checks, which the timed run made, and no loop before the measured call);
# each band's figures go into file $1-INDEX.json, named in memory_files.
memory_files=()
run_memory() {
  local prefix=$1 i status=0 pids=() logs=() logfile rows
  log "memory figures (${MEMORY_EXE##*/}, one call per benchmark, the bands side by side)"
  for i in "${!bands[@]}"; do
    ((counts[i] > 0)) || continue
    logfile="$BUILD/bench-memory-$(band_rows "${bands[$i]}").log"
    memory_files+=("$prefix-$i.json")
    logs+=("$logfile")
    rows=()
    [[ "$(band_rows "${bands[$i]}")" == "0-" ]] || rows=(--wirebench_rows="$(band_rows "${bands[$i]}")")
    GLIBC_TUNABLES="$HEAP_TUNABLES" WIREBENCH_COMMIT="$commit" "$MEMORY_EXE" \
      --benchmark_out="$prefix-$i.json" "${selection[@]}" "${rows[@]}" --benchmark_repetitions=1 \
      --benchmark_min_time=1e-9 --wirebench_memory_run "${extra[@]}" >"$logfile" 2>&1 &
    pids+=($!)
  done
  run_pid="${pids[*]}"
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || status=$?
    ((status == 0)) || fail_step "${MEMORY_EXE##*/} (the memory figures)" "$status" "${logs[$i]}"
  done
  run_pid=""
}

# ---- the steps beside the result ---------------------------------------------

# The JSON conformance matrix (docs/conformance.md) beside the result, where
# `wirebench report` finds it: for the whole suite every JSON decoder; for a
# focused run that times JSON decoders, those alone. Its table goes to a log; the
# summary shows the run's decoders. Exit 1 means a parser crashed or a decoder
# took invalid JSON: a finding for the report, not a reason to drop the result.
conformance_step() {
  local file="${final%.json}-conformance.json" status=0 only=() libraries
  if ((!whole_suite)); then
    libraries=$(grep -oE '^json/[^/]+/[0-9]+/(decode|parse-only|decode-new-parser|decode-cold-cache)/[^/]+' \
      "$parts_dir/names.txt" | cut -d/ -f5 | sort -u | paste -sd, -) || true
    [[ -n "$libraries" ]] || return 0
    only=(--library "$libraries")
  fi
  log "JSON conformance (${only[1]:-every JSON decoder} over the conformance corpus)"
  "$BUILD/wirebench_cli" conformance --json "$file" "${only[@]}" >"$BUILD/bench-conformance.log" 2>&1 || status=$?
  case $status in
    0 | 1) conformance_file=$file ;;
    *) log "conformance matrix not written ($(exit_reason "$status"); $BUILD/bench-conformance.log)" ;;
  esac
}

# The standalone loops beside the result (<name>-standalone.json): each
# library's own minimal loop against our seam, and the floors under decode +
# bind for the DOMs without namespace support, on the same build and CPU,
# repetitions interleaved (61 loops, 3 repetitions of 0.05 s: about 45 s, most
# of it the Xerces-C and Poco loops over the 8 MB Atom payload, whose every
# entry parses it once untimed first). The whole suite only; the figures
# docs/ cite come from runs of their own with more repetitions.
standalone_step() {
  local file="${final%.json}-standalone.json" reps=3 min=0.05
  ((whole_suite)) && [[ -x "$BUILD/wirebench_standalone" ]] || return 0
  ((quick)) && reps=1 min=0.01
  log "standalone loops, $reps repetition(s) interleaved"
  GLIBC_TUNABLES="$HEAP_TUNABLES" "${pin[@]}" "$BUILD/wirebench_standalone" \
    --benchmark_repetitions="$reps" --benchmark_min_time="$min" \
    --benchmark_enable_random_interleaving=true --benchmark_display_aggregates_only=true \
    --benchmark_out="$file" --benchmark_out_format=json >"$BUILD/bench-standalone.log" 2>&1 ||
    log "standalone loops failed; no $file ($BUILD/bench-standalone.log)"
}

# Instruction counts beside the result (<name>-icount.json, callgrind, about
# 3 minutes): the decode + bind against parse-only ratios of the XML parsers,
# without the machine's noise, on the same build and heap. One call each: a
# count repeats to within 0.01 %. With --icount and the whole suite.
icount_step() {
  ((icount && whole_suite)) || return 0
  if ! command -v valgrind >/dev/null; then
    log "--icount needs valgrind (package valgrind); no instruction counts"
    return 0
  fi
  log "instruction counts (callgrind) of the atom/science/8100 decode and parse-only"
  GLIBC_TUNABLES="$HEAP_TUNABLES" /usr/bin/python3 "$ROOT/tools/commands/icount.py" --build "$BUILD" \
    --repetitions 1 --timing "$final" \
    --filter '^atom/science/8100/(decode/[^/]+/from:reference|parse-only/[^/]+)$' >&2 ||
    log "instruction counts failed; no ${final%.json}-icount.json"
}

# The report beside the result (<name>/REPORT.md, report.html, charts). A
# failing report never loses the result: it can be rerun.
report_step() {
  /usr/bin/python3 "$ROOT/tools/commands/report.py" "$final" >&2 ||
    log "report not written; run ./wirebench report $final"
}

# On screen: the noise in one line, the conformance of the run's JSON
# decoders (every decoder for the whole suite) and, for a focused run, its
# competitors side by side (tools/wbtools/results/run_summary.py).
summary_step() {
  local args=("$final")
  [[ -n "$conformance_file" ]] && args+=(--conformance "$conformance_file")
  ((whole_suite)) && [[ -n "$conformance_file" ]] && args+=(--all-decoders)
  ((whole_suite)) || args+=(--competitors)
  /usr/bin/python3 "$ROOT/tools/commands/bench_step.py" summary "${args[@]}" >&2 ||
    log "no summary; the result is written"
}

# ---- the run ------------------------------------------------------------------

# The commit goes into the file name (short) and the context (full, with
# "-dirty" when tracked files differ from it: such a result is not reproducible
# from the commit alone).
commit=unknown short=unknown
if full=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null); then
  commit=$full
  short=$(git -C "$ROOT" rev-parse --short HEAD)
  [[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]] || commit="$full-dirty"
fi
# The machine is named by its CPU model (wbtools/results/machine.py): amd-epyc-f26m2.
machine=$(/usr/bin/python3 "$ROOT/tools/commands/bench_step.py" machine 2>/dev/null || echo unknown-cpu)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out_dir" || die "cannot create $out_dir"
out_dir=$(cd "$out_dir" && pwd)

tmp=$(mktemp "$out_dir/.run-XXXXXX.tmp")
parts_dir=$(mktemp -d "$out_dir/.parts-XXXXXX.tmp")
run_pid=""
cleanup() { rm -rf "$tmp" "$parts_dir"; }
on_signal() {
  if [[ -n "$run_pid" ]]; then
    # shellcheck disable=SC2086 # one or more PIDs
    kill $run_pid 2>/dev/null || true
    # shellcheck disable=SC2086
    wait $run_pid 2>/dev/null || true
  fi
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# The verdict of a payload run, before any timing: every parser once over each
# file in a sandboxed child (wirebench_cli verdict). A parser that crashed
# there is not run in the timing process, whose crash would end the run.
verdict_file=""
if ((${#payload_specs[@]})); then
  log "verdict: every parser once over each file, sandboxed"
  "$BUILD/wirebench_cli" verdict --json "$parts_dir/verdict.json" "${payload_specs[@]}" \
    >"$BUILD/bench-verdict.log" 2>&1 || die "the verdict failed: $(tail -n 3 "$BUILD/bench-verdict.log")"
  sed 's/^/  /' "$BUILD/bench-verdict.log" >&2
  verdict_file="$parts_dir/verdict.json"
  mapfile -t crashed < <(/usr/bin/python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    for v in f["verdicts"]:
        if v["verdict"] == "crashed":
            print("--wirebench_payload_crashed=%s:%s" % (v["library"], f["path"]))
' "$verdict_file")
  selection+=("${crashed[@]}")
  common+=("${crashed[@]}")
fi

# What each band holds: bands with none are not run, a run with none at all
# is a request that cannot be met, and the progress counts against the total.
counts=()
total=0
first_band=-1
: >"$parts_dir/names.txt"
for i in "${!bands[@]}"; do
  list_band "${bands[$i]}" "$parts_dir/list-$i.txt"
  counts+=("$(grep -c . "$parts_dir/list-$i.txt" || true)")
  cat "$parts_dir/list-$i.txt" >>"$parts_dir/names.txt"
  total=$((total + counts[i]))
  ((counts[i] == 0 || first_band >= 0)) || first_band=$i
done
if ((total == 0)); then
  listing="./wirebench bench -- --benchmark_list_tests lists every name"
  [[ -n "$filter" ]] && die "no benchmark matches '$filter' ($listing)"
  die "no benchmark to run ($listing)"
fi
where="CPU $cpu"
((threads)) && where="UNPINNED thread benchmarks"
if ((rounds)); then
  order="in rounds (each unit's competitors side by side); bands (rows:min time s:rounds)"
else
  order="$repetitions repetition(s)"
  ((interleave)) && order+=", interleaved"
  order+="; bands (rows:min time s)"
fi
log "$total benchmarks; $where; $order" \
  "${bands[*]}; GLIBC_TUNABLES=$HEAP_TUNABLES"
# The machine's state before and after (wbtools/results/machine_state.py): recorded in
# the context, with a warning now when it makes the figures suspect.
/usr/bin/python3 "$ROOT/tools/commands/bench_step.py" machine-state --cpu "$cpu" \
  >"$parts_dir/state-before.json" || die "cannot read the machine's state"
start=$SECONDS
t0=$(date +%s)
parts=()
finished=0
for i in "${!bands[@]}"; do
  ((counts[i] > 0)) || continue
  part="$parts_dir/part-$i.json"
  run_band "${bands[$i]}" "$i" "$part"
  parts+=("$part:$(band_rows "${bands[$i]}"):$(band_min_time "${bands[$i]}")")
  finished=$((finished + counts[i]))
done
/usr/bin/python3 "$ROOT/tools/commands/bench_step.py" machine-state --cpu "$cpu" \
  >"$parts_dir/state-after.json" || die "cannot read the machine's state"
# Thread runs have no memory figures.
memory_args=()
if ((!threads)); then
  run_memory "$parts_dir/memory"
  for file in "${memory_files[@]}"; do memory_args+=(--memory "$file"); done
fi
/usr/bin/python3 "$ROOT/tools/commands/bench_step.py" merge "$tmp" "${parts[@]}" "${memory_args[@]}" \
  --state-before "$parts_dir/state-before.json" --state-after "$parts_dir/state-after.json" ||
  die "cannot merge the bands' results"
log "benchmarks finished in $((SECONDS - start)) s"

# Publish without ever overwriting: link(2) fails if the name exists.
chmod 644 "$tmp" # mktemp makes it private; a result is for everyone to read
base="$out_dir/$stamp-$machine-$short"
((threads)) && base="$base-threads"
final="$base.json"
n=1
until ln "$tmp" "$final" 2>/dev/null; do
  final="$base-$n.json"
  n=$((n + 1))
  ((n < 100)) || die "cannot create a result file next to $base.json"
done
rm -f "$tmp"

conformance_file=""
if [[ -n "$verdict_file" ]]; then
  mv "$verdict_file" "${final%.json}-verdict.json"
  chmod 644 "${final%.json}-verdict.json"
fi
if ((!threads)); then
  # A payload run's parsers met the user's file in the verdict; the
  # conformance corpus says nothing about it.
  ((${#payload_specs[@]})) || conformance_step
  standalone_step
  icount_step
  report_step
fi
summary_step
log "done in $((SECONDS - start)) s"
echo "$final"
