#include "wire/tls_error.hpp"

#include <openssl/err.h>

#include <stdexcept>

namespace wire {

void throw_openssl_error(const std::string& context, const std::string& what) {
  char reason[256] = "no reason given";
  if (unsigned long e = ERR_get_error()) ERR_error_string_n(e, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error(context + ": " + what + ": " + reason);
}

}  // namespace wire
