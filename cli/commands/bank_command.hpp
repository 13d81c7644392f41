#pragma once
// `layoutproof bank --op OP --width W --addresses A0,...,A31 [--json]`: the predicted shared-memory
// wavefronts of one warp-wide instruction (model/bank/bank.hpp), the ideal and the conflict degree.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// bank's flag table, for --help.
FlagTable bank_flags();

// args: the words after `bank`. Writes the report to out and returns 0; throws LayoutError on bad
// input (the caller prints `error: ...` and exits 2).
int run_bank(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
