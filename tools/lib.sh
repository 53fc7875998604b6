# Sourced by wirebench and the scripts in tools/commands/: the Debian packages
# the project needs, installing the missing ones, and the Release build.
# Expects ROOT (the repository) to be set.

BUILD="${BUILD:-$ROOT/build/release}"
JOBS="${WIREBENCH_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# Debian 12 packages of the build, the tests and the tools (docs/dependencies.md).
PACKAGES=(build-essential cmake pkg-config git libbenchmark-dev libbenchmark-tools googletest libgtest-dev
  rapidjson-dev nlohmann-json3-dev libsimdjson-dev libpugixml-dev libxml2-dev libxerces-c-dev
  libexpat1-dev librapidxml-dev libboost-json1.81-dev libtinyxml2-dev libmxml-dev libpoco-dev
  zlib1g-dev libbrotli-dev libzstd-dev liblz4-dev libcpp-httplib-dev libssl-dev libnghttp2-dev
  libgrpc++-dev protobuf-compiler-grpc
  libprotobuf-dev protobuf-compiler libprotobuf-c-dev protobuf-c-compiler
  libflatbuffers-dev flatbuffers-compiler flatbuffers-compiler-dev libcapnp-dev capnproto
  libmpack-dev libcbor-dev libbson-dev libthrift-dev thrift-compiler libavro-dev
  libjansson-dev libsnappy-dev libjsoncpp-dev libjson-c-dev libcjson-dev libyajl-dev libpoco-dev
  python3 valgrind clang libclang-rt-14-dev libjs-chart.js chromium)

log() { printf 'wirebench: %s\n' "$*" >&2; }
die() {
  printf 'wirebench: error: %s\n' "$*" >&2
  exit 2
}

install_missing() {
  [[ "${WIREBENCH_NO_INSTALL:-0}" == 1 ]] && return 0
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get: install them by hand"
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  log "installing: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Configures (once) and builds the Release preset, all targets or those named.
build() {
  install_missing
  if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    log "configuring (preset release)"
    cmake --preset release -S "$ROOT" >&2
  fi
  local targets=()
  (($# > 0)) && targets=(--target "$@")
  log "building${1:+ $*}"
  cmake --build "$BUILD" -j "$JOBS" "${targets[@]}" >&2
}

# True when executable $1 exists and no source or build file has changed
# since it was last built or found current (its stamp, $1.checked): a command
# can then run it without asking make, which takes seconds to find nothing to
# do and prints on stderr.
is_current() {
  [[ -x "$1" && -f "$1.checked" ]] || return 1
  [[ -z "$(find "$ROOT/CMakeLists.txt" "$ROOT/CMakePresets.json" "$ROOT/generators" "$ROOT/codecs" \
    "$ROOT/cli" "$ROOT/benchmarks" "$ROOT/wire" -type f -newer "$1.checked" -print -quit 2>/dev/null)" ]]
}
# Marks executable $1 current: called after a build that succeeded.
mark_current() { touch "$1.checked"; }
