#pragma once
// `layoutproof trace`: the shared-memory instructions a CuTe kernel's copy really issues, and
// claims over them (model/trace/tv.hpp, model/trace/trace.hpp, proofs/claims/trace_claims.hpp).
//
//   layoutproof trace --smem EXPR --copy EXPR [--mma EXPR] --side S|D --element T [--base ADDR]
//                     [-D NAME=EXPR ...] [--json] [--claim C ...] [--engine z3|exhaustive|auto]
//
// Without --claim: the trace (text, or --json: {"op","width_bytes","threads","instructions":[...]}).
// With --claim: prove's output and exit codes (0 all proved, 1 any refuted, 3 unknown/error);
// bad input is exit 2.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// trace's flag table, for --help.
FlagTable trace_flags();

int run_trace(const std::vector<std::string>& args, std::ostream& out);
extern const char* const kTraceHelp;

}  // namespace layoutproof::cli
