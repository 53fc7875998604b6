#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "wire/link.hpp"

namespace wire {

// A progress line on stderr for work that may run longer than a couple of
// seconds: silent for the first 2 s, then one update a second (rewritten in
// place on a terminal, one line each otherwise).
class Progress {
 public:
  Progress(std::string label, std::uint64_t total_bytes, bool enabled)
      : label_(std::move(label)),
        total_(total_bytes),
        enabled_(enabled),
        start_ns_(monotonic_ns()),
        tty_(::isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (shown_ && tty_) std::fputc('\n', stderr);
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::uint64_t done, std::int64_t now_ns) {
    if (!enabled_ || now_ns - start_ns_ < 2'000'000'000 || now_ns < next_ns_) return;
    next_ns_ = now_ns + 1'000'000'000;
    shown_ = true;
    std::fprintf(stderr, "%swirebench_wire: %s: %.1f of %.1f MB, %.0f s%s", tty_ ? "\r" : "",
                 label_.c_str(), static_cast<double>(done) / 1e6, static_cast<double>(total_) / 1e6,
                 static_cast<double>(now_ns - start_ns_) / 1e9, tty_ ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  std::int64_t start_ns_;
  bool tty_;
  bool shown_ = false;
  std::int64_t next_ns_ = 0;
};

}  // namespace wire
