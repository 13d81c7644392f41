#pragma once
// `layoutproof algebra OP ARG... [--cute-text]` and `layoutproof algebra - [--cute-text]`.
#include <iosfwd>
#include <string>
#include <vector>

namespace layoutproof::cli {

// The names of the operations, in the order `--help` lists them.
const std::vector<std::string>& algebra_ops();
// `layoutproof algebra --help`: every operation's usage, the notation, static vs dynamic ints.
std::string algebra_help();
// One query: args[0] is OP; `--cute-text` anywhere in args (or cute_text) reads every argument as
// CuTe's exact text (bare ints dynamic) and prints CuTe's text. `OP --help` gives OP's usage.
// Returns the one-line result; throws LayoutError on bad input or a result CuTe gets wrong.
std::string run_algebra_query(const std::vector<std::string>& args);
std::string run_algebra_query(const std::vector<std::string>& args, bool cute_text);
// Reads one query per line from in, writes one line per query to out (the result or
// `error: ...`). flags: `--cute-text` applies to every line. Returns 0.
int run_algebra_batch(std::istream& in, std::ostream& out);
int run_algebra_batch(std::istream& in, std::ostream& out, const std::vector<std::string>& flags);

}  // namespace layoutproof::cli
