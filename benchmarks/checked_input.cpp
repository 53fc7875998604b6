// The correctness check the measurement-depth benchmarks run before timing,
// shared by the thread, scaling and cold benchmarks.
#include <exception>

#include "benchmarks/measure.hpp"
#include "benchmarks/payloads.hpp"
#include "benchmarks/verify.hpp"

namespace wb::bench {
DecodeInput checked_decode_input(const CodecEntry& dec, DatasetKind dataset, int rows) {
  DecodeInput in;
  const CodecEntry* ref = reference_encoder(dec.format);
  if (!ref) {
    in.error = "no serializer for " + std::string(dec.format);
    return in;
  }
  Group& g = group(dec.format, dataset, rows);
  const Payload& payload = g.payload(*ref);
  in.records = g.records();
  if (!payload.error.empty()) {
    in.error = payload.error;
    return in;
  }
  in.bytes = padded_copy(payload.bytes);  // a plain copy would drop the slack
  Records out = empty_records(dataset);
  in.error = failure_of(dec.library, [&] { dec.make_decoder()->decode(in.bytes, out); });
  if (!in.error.empty()) return in;
  if (auto why = diff_records(in.records, out, dec.exact ? 0 : kInexactTolerance); !why.empty())
    in.error = std::string(dec.library) + ": " + why;
  return in;
}

EncodeInput checked_encode_input(const CodecEntry& enc, DatasetKind dataset, int rows) {
  EncodeInput in;
  in.records = group(enc.format, dataset, rows).records();
  std::string out;
  in.error = failure_of(enc.library, [&] { enc.make_encoder()->encode(in.records, out); });
  if (!in.error.empty()) return in;
  bool checked = false;
  in.error = check_encoded(enc.format, in.records, out, checked);
  in.wire_bytes = out.size();
  return in;
}

}  // namespace wb::bench
