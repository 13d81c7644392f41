#pragma once
// `layoutproof catalog [FLAGS]`: proves every claim of the built-in catalog of CUTLASS
// shared-memory atoms (proofs/catalog/catalog.hpp) and prints the table. FLAGS: cli/run_flags.hpp, and
// --list to print the atoms without proving. Exit codes as for `prove`.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/run_flags.hpp"

namespace layoutproof::cli {

// catalog's flag table (--list, the run and output flags), for --help.
FlagTable catalog_flags();
int run_catalog(const std::vector<std::string>& args, std::ostream& out);

}  // namespace layoutproof::cli
