#pragma once
// `layoutproof algebra OP ARG...` and `layoutproof algebra -`.
#include <iosfwd>
#include <string>
#include <vector>

namespace layoutproof::cli {

// The names of the operations, in the order `--help` lists them.
const std::vector<std::string>& algebra_ops();
// One query: args[0] is OP. Returns the one-line result; throws LayoutError on bad input.
std::string run_algebra_query(const std::vector<std::string>& args);
// Reads one query per line from in, writes one line per query to out (the result or
// `error: ...`). Returns 0.
int run_algebra_batch(std::istream& in, std::ostream& out);

}  // namespace layoutproof::cli
