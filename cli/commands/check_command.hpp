#pragma once
// `layoutproof check SPEC [FLAGS]`: proves every claim of a spec file (cli/spec/spec.hpp). FLAGS:
// cli/run_flags.hpp (--json FILE, --junit FILE, --sarif FILE, --markdown FILE, --report DIR, -j N,
// --cache DIR, ...). Exit codes as for `prove`: 0 all proved, 1 any refuted, 2 bad input,
// 3 unknown or error.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/flags/flag_table.hpp"

namespace layoutproof::cli {

// check's flag table (the run and output flags, -D, --allow-empty, --spec-keys), for --help.
FlagTable check_flags();

int run_check_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
