#pragma once
// `layoutproof prove LAYOUT --claim CLAIM [--claim ...] [--json] [--engine z3|exhaustive|auto]
//                   [--timeout-ms N] [--dump-smt DIR]`
// Exit code: 0 all proved, 1 any refuted, 3 any unknown or error (and none refuted);
// bad input throws LayoutError (main maps it to 2).
#include <iosfwd>
#include <string>
#include <vector>

namespace layoutproof::cli {

int run_prove(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
