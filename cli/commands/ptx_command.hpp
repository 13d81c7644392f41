#pragma once
// `layoutproof ptx FILE` and `layoutproof sass FILE`: every shared-memory instruction of a compiled
// kernel (its PTX, or the SASS ptxas made of it: model/compiled/sass/sass_parse.hpp), run for every
// thread of one concrete CTA (model/compiled/ptx_parse.hpp, model/compiled/ptx_exec.hpp), counted as
// Nsight Compute counts it (executed warp instructions, wavefronts, ideal wavefronts) and proved
// with the same bank model and trace claims as `trace` (proofs/claims/ptx_claims.hpp).
//
//   layoutproof ptx FILE [--kernel TEXT] [--block X[,Y[,Z]]] [--grid X[,Y[,Z]]] [--param I=V|NAME=V ...]
//                   [--smem-bytes N] [--claim C ...] [--json] [--report DIR] [--deadline-s S]
//
// --report is not implemented yet: it is refused (exit 2), never ignored.
// Exit codes: 0 every claim proved (or counts only, complete), 1 a claim refuted, 2 bad input,
// 3 a claim unknown or an error (or counts only, with a lane that stopped early).
#include <iosfwd>
#include <string>
#include <vector>

#include "model/compiled/compiled_file.hpp"

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// The flag table of ptx or sass, for --help.
FlagTable compiled_flags(compiled::CompiledFormat format);

// One command for both formats: they share the IR, the executor, the claims and the output.
int run_compiled_command(const std::vector<std::string>& args, std::ostream& out, compiled::CompiledFormat format);
inline int run_ptx_command(const std::vector<std::string>& args, std::ostream& out) {
  return run_compiled_command(args, out, compiled::CompiledFormat::ptx);
}

}  // namespace layoutproof::cli
