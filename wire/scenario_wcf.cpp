// WCF, as published: 3,000 calls for 101 airports on a LAN, SOAP
// (DataContractSerializer) against WCF's JSON (DataContractJsonSerializer).
// Published: 10 s for SOAP, 14 s for JSON, SOAP 20-25 % faster, because WCF
// reads and writes JSON through an XML infoset. Both sides here use the
// registry's field picks, one XML library for both, so the difference is the
// infoset mapping and the bytes.

#include "wire/scenario.hpp"

namespace wire {

int run_wcf(const TestbedConfig& config) {
  ScenarioBed bed("wcf", config);
  struct Series {
    const char* format;
    double published_s;
    const char* note;
  };
  const Series series[] = {
      {"soap", 10, "3,000 calls, 101 airports: SOAP 10 s"},
      {"wcfjson", 14, "3,000 calls, 101 airports: JSON 14 s"},
  };
  int failed = 0;
  for (const Series& s : series) {
    HttpSpec spec;
    spec.dataset = "airport";
    spec.rows = 101;
    spec.format = s.format;
    spec.encoder = field_codec(s.format, wb::Role::encode);
    spec.decoder = field_codec(s.format, wb::Role::decode);
    validate(spec);
    auto results = run_series(bed, "wcf", s.format, std::vector<HttpSpec>(3000, spec));
    print_result("wcf", s.format, results, s.published_s, s.note);
    for (const auto& r : results) failed += r.ok() ? 0 : 1;
  }
  return failed ? 1 : 0;
}

}  // namespace wire
