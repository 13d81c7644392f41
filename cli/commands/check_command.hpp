#pragma once
// `layoutproof check SPEC [FLAGS]`: proves every claim of a spec file (cli/spec/spec.hpp). FLAGS:
// cli/run_flags.hpp (--json FILE, --junit FILE, --sarif FILE, --markdown FILE, --report DIR, -j N,
// --cache DIR, ...). Exit codes as for `prove`: 0 all proved, 1 any refuted, 2 bad input,
// 3 unknown or error.
#include <iosfwd>
#include <string>
#include <vector>

namespace layoutproof::cli {

int run_check_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
