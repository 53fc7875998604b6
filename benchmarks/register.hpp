// Benchmark registration, from the registry: nothing here names a library.
#pragma once

namespace wb::bench {

// {format}/{dataset}/{rows}/encode/{serializer}
// {format}/{dataset}/{rows}/decode/{parser}/from:{serializer}
// {format}/{dataset}/{rows}/parse-only/{parser}
void register_codec_benchmarks();

// reference/memcpy/{bytes} and reference/byte-scan/{bytes}: the physical
// limits, one pair per distinct reference payload size.
void register_reference_benchmarks();

// Records this run's facts (versions, seed, CPU pinning, ...) as custom context.
void add_run_context();

}  // namespace wb::bench
