#pragma once
// `layoutproof catalog [FLAGS]`: proves every claim of the built-in catalog of CUTLASS
// shared-memory atoms (proofs/catalog.hpp) and prints the table. FLAGS: cli/run_flags.hpp, and
// --list to print the atoms without proving. Exit codes as for `prove`.
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/run_flags.hpp"
#include "proofs/check.hpp"

namespace layoutproof::cli {

int run_catalog(const std::vector<std::string>& args, std::ostream& out);

// Writes the requested outputs (files and stdout) for a finished run; returns the exit code.
int emit_results(std::ostream& out, const std::string& source, const std::vector<proofs::CheckResult>& results,
                 double wall_ms, const OutputFlags& flags);

}  // namespace layoutproof::cli
