#pragma once
// `layoutproof synth`: swizzle synthesis (proofs/synth/synth.hpp), human lines or --json.
// `layoutproof synth --kernel`: the smem layout for a kernel's own copies (proofs/synth/kernel_synth.hpp),
// same exit codes; its help: layoutproof synth --kernel --help.
// Exit codes: 0 a conflict-free swizzle was found and every claim about it is PROVED; 1 no member of
// the family is conflict-free (that statement is PROVED; the GF(2) search may still offer a map);
// 2 bad input; 3 a claim about the winner is UNKNOWN or ERROR.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// The flag table of synth (kernel: of synth --kernel), for --help.
FlagTable synth_flags(bool kernel);

int run_synth(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
