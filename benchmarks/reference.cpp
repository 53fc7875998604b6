// The physical limits a codec is measured against: copying the payload
// (memcpy) and reading every byte of it once (byte-scan), at the size of each
// reference payload, over the payload's own bytes.
#include <algorithm>
#include <cstring>
#include <exception>
#include <map>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <benchmark/benchmark.h>

#include "benchmarks/band.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/register.hpp"
#include "benchmarks/timed_loops.hpp"

namespace wb::bench {

// 16 bytes at a time: the limit is reading the bytes,
// not a scalar loop (std::count stays scalar at -O2 and runs ~6x slower than
// SIMD parsers' first stage, which would make it no limit at all).
std::size_t count_byte(std::string_view s, char c) {
  std::size_t n = 0, i = 0;
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  while (i + 16 <= s.size()) {
    // Per-byte match counts (0 - 0xFF per match) cannot overflow in 255 blocks.
    const std::size_t blocks = std::min<std::size_t>((s.size() - i) / 16, 255);
    __m128i counts = _mm_setzero_si128();
    for (std::size_t b = 0; b < blocks; ++b, i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(bytes, needle));
    }
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < s.size(); ++i) n += s[i] == c;
  return n;
}

namespace {

// Where a payload of a given size comes from.
struct Source {
  const CodecEntry* encoder;
  DatasetKind dataset;
  int rows;
};

// A private, already touched copy of the payload (the group may be freed).
std::string load(const Source& src) {
  const Payload& p = group(src.encoder->format, src.dataset, src.rows).payload(*src.encoder);
  return std::string(std::string_view(p.bytes));
}

void run_memcpy(benchmark::State& state, const Source& src) {
  const std::string in = load(src);
  std::string out(in.size(), '\0');
  timed_loop(state, [&] {
    std::memcpy(out.data(), in.data(), in.size());
    benchmark::ClobberMemory();
  });
  set_throughput(state, in.size(), static_cast<std::size_t>(src.rows));
}

void run_byte_scan(benchmark::State& state, const Source& src) {
  const std::string in = load(src);
  if (count_byte(in, '"') != static_cast<std::size_t>(std::count(in.begin(), in.end(), '"')))
    return state.SkipWithError("byte-scan miscounts quotes");
  timed_loop(state, [&] {
    // Counting quotes reads every byte; the count is kept alive so the scan
    // cannot be dropped.
    std::size_t quotes = count_byte(in, '"');
    benchmark::DoNotOptimize(quotes);
  });
  set_throughput(state, in.size(), static_cast<std::size_t>(src.rows));
}

}  // namespace

void register_reference_benchmarks() {
  // Sizes are known only after encoding, so the reference payloads are made
  // here once (a few ms) and dropped; the benchmarks make them again lazily.
  // Each loop runs in the band of its payload's rows and joins that payload's
  // unit of rounds; the byte scan of a unit's JSON payload is its probe.
  std::map<std::size_t, Source> by_size;
  for (const DatasetInfo& info : kDatasets) {
    for (int rows : info.sizes) {
      if (!rows_band().contains(rows)) continue;
      const Records records = generate(info.kind, rows, seed());
      for (std::string_view format : formats()) {
        const CodecEntry* ref = reference_encoder(format);
        if (!ref) continue;
        std::string out;
        try {
          ref->make_encoder()->encode(records, out);
        } catch (const std::exception&) {
          continue;  // its encode benchmark reports the failure
        }
        by_size.try_emplace(out.size(), Source{ref, info.kind, rows});
      }
    }
  }
  for (const auto& [bytes, src] : by_size) {
    const std::string size = std::to_string(bytes);
    const std::string unit =
        std::string(dataset_info(src.dataset).name) + "/" + std::to_string(src.rows);
    register_for_rows(src.rows, "reference/memcpy/" + size, unit,
                      [src = src](benchmark::State& s) { run_memcpy(s, src); });
    const std::string scan = "reference/byte-scan/" + size;
    register_for_rows(src.rows, scan, unit,
                      [src = src](benchmark::State& s) { run_byte_scan(s, src); });
    if (src.encoder->format == "json" || unit_probe(unit).empty()) set_unit_probe(unit, scan);
  }
}

}  // namespace wb::bench
