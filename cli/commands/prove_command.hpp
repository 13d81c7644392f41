#pragma once
// `layoutproof prove LAYOUT --claim CLAIM [--claim ...] [--json] [--engine z3|exhaustive|auto]
//                   [--timeout-ms N] [--dump-smt DIR]
// Bank claims (conflict-free, max-ways:K) over every instruction of an access:
//   layoutproof prove TILE --claim conflict-free --elem-bytes E [--vec V]
//       (--pattern row-per-lane|linear|ldmatrix | --thread-layout T)
//       [--op ld|st|ldsm1|ldsm2|ldsm4|stsm1|stsm2|stsm4] [--base ADDR] [--byte-swizzle Sw<B,M,S>]
//       [--report DIR]
//   --vec defaults to 1 (16/E for ldsm/stsm), --op to ld; a lane reads E*V bytes.`
// Exit code: 0 all proved, 1 any refuted, 3 any unknown or error (and none refuted);
// bad input throws LayoutError (main maps it to 2).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// prove's flag table, for --help.
FlagTable prove_flags();
int run_prove(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
