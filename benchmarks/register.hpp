// Benchmark registration, from the registry: nothing here names a library.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/registry.hpp"

namespace wb::bench {

// {format}/{dataset}/{rows}/encode/{serializer}
// {format}/{dataset}/{rows}/decode/{parser}/from:{serializer}
// {format}/{dataset}/{rows}/parse-only/{parser}
// every_pairing: decode from every serializer at every size; otherwise only at
// each dataset's field_rows, and from the reference writer at the other sizes
// (the pairing matrix grows as parsers x serializers; this keeps the default
// run short while every pairing is still timed once per dataset).
void register_codec_benchmarks(bool every_pairing);

// {prefix}compress/{codec} and {prefix}decompress/{codec} on the payload of
// encoder, for every compressor (prefix: "{format}/{dataset}/{rows}/").
void register_compress_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                                  DatasetKind dataset, int rows);
// The same over bytes that outlive the run (a user's file: payload_files.hpp).
void register_compress_benchmarks(const std::string& prefix, std::string_view payload,
                                  std::size_t rows);
// "{codec}_bytes" counters: the payload's size under every compressor.
std::vector<std::pair<std::string, double>> compressed_sizes(std::string_view payload);

// {prefix}route/{library} on the payload of encoder, for every router of its format.
void register_route_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                               DatasetKind dataset, int rows);

// {prefix}access/{library} and {prefix}access-unverified/{library} on the
// payload of encoder, for every accessor of its format (zero-copy formats).
void register_access_benchmarks(const std::string& prefix, const CodecEntry& encoder,
                                DatasetKind dataset, int rows);

// Occurrences of c in s: the byte scan, each unit's probe (reference.cpp).
std::size_t count_byte(std::string_view s, char c);

// reference/memcpy/{bytes} and reference/byte-scan/{bytes}: the physical
// limits, one pair per distinct reference payload size.
void register_reference_benchmarks();

// Records this run's facts (versions, seed, CPU pinning, ...) as custom context.
void add_run_context();

}  // namespace wb::bench
