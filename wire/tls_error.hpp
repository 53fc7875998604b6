#pragma once

// OpenSSL's reason for a failed call, as the exception the TLS code throws.

#include <string>

namespace wire {

// Throws std::runtime_error "<context>: <what>: <OpenSSL's first queued
// reason>" and clears OpenSSL's error queue of this thread.
[[noreturn]] void throw_openssl_error(const std::string& context, const std::string& what);

}  // namespace wire
