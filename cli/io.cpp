#include "cli/io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "cli/args.hpp"

namespace wb::cli {
namespace {

std::string describe_errno(std::string_view what, std::string_view path) {
  return std::string(what) + " '" + std::string(path) + "': " + std::strerror(errno);
}

}  // namespace

std::string read_input(std::string_view path) {
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? "<stdin>" : std::string(path);
  std::unique_ptr<FILE, int (*)(FILE*)> owned(nullptr, &std::fclose);
  FILE* f = stdin;
  if (!from_stdin) {
    owned.reset(std::fopen(name.c_str(), "rb"));
    if (!owned) throw UsageError(describe_errno("cannot open", name));
    f = owned.get();
  }
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  // A directory opens fine on Linux; the failure shows up on the first read.
  if (std::ferror(f)) throw UsageError(describe_errno("cannot read", name));
  return data;
}

void write_stdout(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
      std::fflush(stdout) != 0)
    throw std::runtime_error(std::string("cannot write to stdout: ") + std::strerror(errno));
}

void print_error(std::string_view command, std::string_view message) {
  std::string line = "wirebench";
  if (!command.empty()) (line += ' ') += command;
  line += ": ";
  for (char c : message) line += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  while (line.back() == ' ') line.pop_back();
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace wb::cli
