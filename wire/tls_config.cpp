#include "wire/tls_config.hpp"

#include <cstdlib>
#include <stdexcept>

#include "wire/testbed.hpp"

namespace wire {
namespace {

int parse_int(const std::string& option, const std::string& value, int min, int max) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < min || v > max) {
    throw std::invalid_argument(option + " " + value + ": needs an integer from " +
                                std::to_string(min) + " to " + std::to_string(max));
  }
  return static_cast<int>(v);
}

}  // namespace

std::string TlsConfig::stack() const {
  return enabled() ? "http1+tls" + version : "http1";
}

std::string TlsConfig::json() const {
  if (!enabled()) return "null";
  return "{\"version\": " + json_string(version) + ", \"key\": " + json_string(key) +
         ", \"chain\": " + std::to_string(chain) + ", \"cipher\": " + json_string(cipher) +
         ", \"resume\": " + (resume ? "true" : "false") +
         ", \"early_data\": " + (early_data ? "true" : "false") +
         ", \"names\": " + std::to_string(names) + ", \"host\": " + json_string(kTlsHost) + "}";
}

void set_tls_option(TlsConfig& tls, const std::string& option, const std::string& value) {
  if (option == "--tls") {
    if (value != "1.3" && value != "1.2") throw std::invalid_argument("--tls is 1.3 or 1.2");
    tls.version = value;
  } else if (option == "--tls-cert") {
    if (value != "ecdsa" && value != "rsa")
      throw std::invalid_argument("--tls-cert is ecdsa or rsa");
    tls.key = value;
  } else if (option == "--tls-chain") {
    tls.chain = parse_int(option, value, 1, 3);
  } else if (option == "--tls-cipher") {
    if (value != "aes128gcm" && value != "chacha20") {
      throw std::invalid_argument("--tls-cipher is aes128gcm or chacha20");
    }
    tls.cipher = value;
  } else if (option == "--tls-names") {
    tls.names = parse_int(option, value, 0, 2000);
  } else {
    throw std::invalid_argument("unknown option " + option);
  }
}

}  // namespace wire
