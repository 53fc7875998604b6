// Files in, bytes out, and errors as one line: the CLI's contact with the
// outside world, kept out of the commands.
#pragma once

#include <string>
#include <string_view>

namespace wb::cli {

// The whole content of path ("-" reads stdin), binary-safe. UsageError (exit
// 2) when it cannot be opened or read.
std::string read_input(std::string_view path);

// Writes bytes to stdout unchanged and flushes; std::runtime_error if that fails.
void write_stdout(std::string_view bytes);

// Prints "wirebench <command>: <message>" ("wirebench: <message>" without a
// command) to stderr as exactly one line:
// line breaks and other control characters inside message become spaces
// (libraries' messages sometimes end with a newline).
void print_error(std::string_view command, std::string_view message);

}  // namespace wb::cli
