// The --h2 run of a build without nghttp2 (WB_WITH_NGHTTP2=OFF): it says so.
#include <stdexcept>

#include "wire/h2_client.hpp"

namespace wire {

bool run_h2(const Testbed&, const HttpSpec&, const TlsConfig&, const H2Config&) {
  throw std::runtime_error(
      "--h2: this build has no HTTP/2 (configured with WB_WITH_NGHTTP2=OFF; Debian's "
      "libnghttp2-dev brings it)");
}

}  // namespace wire
