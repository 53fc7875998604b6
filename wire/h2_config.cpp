#include "wire/h2_config.hpp"

#include <cstdlib>
#include <stdexcept>

namespace wire {

std::string H2Config::stack(const TlsConfig& tls) const {
  return tls.enabled() ? "h2+tls" + tls.version : "h2c";
}

std::string H2Config::json() const {
  return "{\"window\": " + (window ? std::to_string(window) : std::string("\"default\"")) +
         ", \"stream_window\": " + std::to_string(stream_window()) +
         ", \"connection_window\": " + std::to_string(connection_window()) +
         ", \"streams\": " + std::to_string(streams) + "}";
}

void set_h2_option(H2Config& h2, const std::string& option, const std::string& value) {
  auto integer = [&](long long min, long long max) {
    char* end = nullptr;
    const long long v = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v < min || v > max) {
      throw std::invalid_argument(option + " " + value + ": needs an integer from " +
                                  std::to_string(min) + " to " + std::to_string(max));
    }
    return v;
  };
  if (option == "--h2") {
    h2.enabled = true;
  } else if (option == "--h2-window" || option == "--h2-connection-window") {
    std::uint32_t& field = option == "--h2-window" ? h2.window : h2.connection;
    if (value == "default") {
      field = 0;
      return;
    }
    try {
      // The largest window HTTP/2 allows is 2^31 - 1.
      field = static_cast<std::uint32_t>(integer(kH2DefaultWindow, 2'147'483'647));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(option + " " + value +
                                  ": is default or bytes from 65535 to 2147483647");
    }
  } else if (option == "--h2-streams") {
    h2.streams = static_cast<int>(integer(1, 100));
  } else {
    throw std::invalid_argument("unknown option " + option);
  }
}

}  // namespace wire
