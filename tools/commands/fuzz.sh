#!/usr/bin/env bash
# Builds the libFuzzer target (CMake preset "debug": clang, ASan + UBSan,
# the codecs compiled with coverage; the same build runs the sanitized test
# suite) and runs it per format for a bounded time, seeded from fixtures/ and
# from every encoder of the format. Each run covers every decoder of its
# format (fuzz/fuzz_decoder.cpp). Crash inputs land in build/debug/artifacts/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# WIREBENCH_SANITIZE_BUILD: another build dir configured from the preset
# (a long fuzzing run beside the default build, say).
BUILD="${WIREBENCH_SANITIZE_BUILD:-$ROOT/build/debug}"
JOBS="${WIREBENCH_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# Seeds above this size are left out: libFuzzer would raise -max_len to the
# largest seed, and mutating megabyte inputs explores little per second. The
# 100,000-deep nesting fixtures are bigger; 64 KiB still nests 32,768 deep.
MAX_LEN=65536

usage() {
  cat <<'USAGE'
usage: ./wirebench fuzz [--seconds N] [--format F] [--seed N]
       (tools/commands/fuzz.sh: the same script)

Configures and builds the debug preset's fuzz target into build/debug
(clang++, libFuzzer, -fsanitize=fuzzer,address,undefined; the directory is
WIREBENCH_SANITIZE_BUILD if set), then runs fuzz_decoder once per format for
N seconds each (default 60) with -timeout=10 -rss_limit_mb=2048,
WIREBENCH_JOBS formats at a time (default: the number of CPUs). Seeds: every
file of fixtures/ up to 64 KiB (and of corpus/ under WIREBENCH_CORPUS when it
is set: the real payloads, docs/testing.md), and a few rows of each dataset
from every encoder of the format; the corpus each format grows is kept in
build/debug/corpus/<format>/ so later runs continue from it.
A crash, leak, timeout or sanitizer report stops that format's run and its
input is written to build/debug/artifacts/<format>-<kind>-<sha1>.

  --seconds N   time per format (-max_total_time)
  --format F    only this format (default: every format of the registry,
                build/debug/fuzz-formats.txt)
  --seed N      libFuzzer's -seed: the same mutations in the same order on
                every run (default: a new seed each run; ./wirebench test
                passes a fixed one, so its brief run is the same on every
                machine, only shorter where the machine is slower)
  -h, --help    this text

Exit status: 0 when no target found anything, 1 when one did, 2 on a bad
request or a failed build.
USAGE
}

die() {
  printf 'run_fuzz: error: %s\n' "$*" >&2
  exit 2
}

seconds=60
only=""
seed=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    --seconds)
      [[ $# -ge 2 ]] || die "--seconds needs a number"
      seconds="$2"
      shift
      ;;
    --seconds=*) seconds="${1#*=}" ;;
    --format)
      [[ $# -ge 2 ]] || die "--format needs a format"
      only="$2"
      shift
      ;;
    --format=*) only="${1#*=}" ;;
    --seed)
      [[ $# -ge 2 ]] || die "--seed needs a number"
      seed="$2"
      shift
      ;;
    --seed=*) seed="${1#*=}" ;;
    *) die "unknown option '$1' (./wirebench fuzz --help lists them)" ;;
  esac
  shift
done
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || die "--seconds wants a positive number, got '$seconds'"
[[ "$seed" =~ ^[0-9]+$ ]] || die "--seed wants a number, got '$seed'"
command -v clang++ >/dev/null || die "clang++ not found (packages clang, libclang-rt-14-dev)"

# A build dir configured without the fuzz targets (e.g. with GCC) is
# configured afresh from the preset.
if ! grep -qs '^WIREBENCH_FUZZ:BOOL=ON$' "$BUILD/CMakeCache.txt"; then
  printf 'run_fuzz: configuring (preset debug)\n' >&2
  cmake --preset debug --fresh -S "$ROOT" -B "$BUILD" >&2 || die "configuring the debug preset failed"
fi
printf 'run_fuzz: building the fuzz target\n' >&2
cmake --build "$BUILD" -j "$JOBS" --target fuzz_targets wirebench_cli >&2 ||
  die "building the fuzz target failed"

# The registry's formats with a decoder in this build: a format whose every
# decoder was left out (cmake's WB_WITH_<LIBRARY>=OFF) has nothing to fuzz.
built=$("$BUILD/wirebench_cli" list | awk '$2 == "decode" { print $1 }' | sort -u) ||
  die "wirebench_cli list failed"
mapfile -t formats < <(grep -xF -f <(printf '%s\n' "$built") "$BUILD/fuzz-formats.txt")
if [[ -n "$only" ]]; then
  printf '%s\n' "${formats[@]}" | grep -qxF -- "$only" ||
    die "no decoder of format '$only' to fuzz (formats: ${formats[*]})"
  formats=("$only")
fi

# Seeds are copied fresh each run so that fixtures added or removed since the
# last run count; libFuzzer only reads them (the first corpus dir is written).
# Each run gets its own seed directory: two runs side by side (one format each)
# must not share one, or one's rm -rf empties the other's.
mkdir -p "$BUILD/artifacts"
seeds="$(mktemp -d "$BUILD/seeds.XXXXXX")" || die "cannot create a seed directory in $BUILD"
trap 'rm -rf "$seeds"' EXIT
# fixtures/, and the third-party payloads when WIREBENCH_CORPUS provides them.
mkdir -p "$seeds/fixtures"
seed_dirs=("$ROOT/fixtures")
if [[ -n "${WIREBENCH_CORPUS:-}" ]]; then seed_dirs+=("$WIREBENCH_CORPUS/corpus"); fi
for dir in "${seed_dirs[@]}"; do
  [[ -d "$dir" ]] || continue
  find "$dir" -type f -size -$((MAX_LEN + 1))c -print0 |
    while IFS= read -r -d '' f; do
      rel="$(basename "$dir")/${f#"$dir/"}"
      cp "$f" "$seeds/fixtures/${rel//\//_}"
    done
done
# A few rows of each dataset from every encoder of each format: the only seeds
# of a binary format (fixtures/ holds text), and every writer's spelling of
# the text formats. Into <seeds>/by-format/<format>/.
while read -r format role library; do
  [[ "$role" == encode ]] || continue
  mkdir -p "$seeds/by-format/$format"
  for dataset in message airport science; do
    "$BUILD/wirebench_cli" encode --format "$format" --dataset "$dataset" --rows 3 \
      --library "$library" >"$seeds/by-format/$format/$dataset-$library" 2>/dev/null ||
      rm -f "$seeds/by-format/$format/$dataset-$library"
  done
done < <("$BUILD/wirebench_cli" list)
printf 'run_fuzz: %d seed files from %s and the encoders, %s s per format: %s\n' \
  "$(find "$seeds" -type f | wc -l)" "${seed_dirs[*]}" "$seconds" "${formats[*]}" >&2

# One format: its log, and its exit status in <log>.status.
fuzz_one() {
  local format="$1" corpus="$BUILD/corpus/$1" log="$BUILD/artifacts/$1.log" status=0
  local format_seeds="$seeds/by-format/$1"
  mkdir -p "$corpus" "$format_seeds"
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: a blow-up.
  # fuzz/ubsan.supp: a library's known UB that would stop every run at once.
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/fuzz/ubsan.supp" \
    "$BUILD/fuzz_decoder" -wb_format="$format" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len="$MAX_LEN" -seed="$seed" -artifact_prefix="$BUILD/artifacts/$format-" \
    -print_final_stats=1 "$corpus" "$seeds/fixtures" "$format_seeds" >"$log" 2>&1 || status=$?
  echo "$status" >"$log.status"
}

# JOBS formats at a time: each is one single-threaded process, so on two
# cores two of them run side by side for the same time apiece (on 2 vCPUs
# four formats take 87 s one after the other, 45 s two at a time; side by
# side each makes 60-90 % of the executions it makes alone).
failed=()
for ((first = 0; first < ${#formats[@]}; first += JOBS)); do
  batch=("${formats[@]:first:JOBS}")
  for format in "${batch[@]}"; do
    printf 'run_fuzz: %s for %s s (log: %s)\n' "$format" "$seconds" \
      "$BUILD/artifacts/$format.log" >&2
    fuzz_one "$format" &
  done
  wait
  for format in "${batch[@]}"; do
    log="$BUILD/artifacts/$format.log"
    status=$(cat "$log.status" 2>/dev/null || echo "?")
    rm -f "$log.status"
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$log" |
      sed "s/^/  $format: /" >&2 || true
    if [[ "$status" != 0 ]]; then
      failed+=("$format")
      printf 'run_fuzz: %s FAILED (exit %s):\n' "$format" "$status" >&2
      # ==wirebench== and the lines after it: a disagreement, in the target's words.
      grep -E -A4 '^==wirebench==' "$log" | head -n 10 >&2 || true
      grep -E 'ERROR:|SUMMARY:|Test unit written|artifact_prefix' "$log" | head -n 8 >&2 || true
    fi
  done
done

if ((${#failed[@]})); then
  printf 'run_fuzz: findings in: %s (inputs in %s)\n' "${failed[*]}" "$BUILD/artifacts" >&2
  exit 1
fi
printf 'run_fuzz: no findings\n' >&2
