#include "cli/catalog_command.hpp"

#include <chrono>
#include <ostream>

#include "cli/results.hpp"
#include "model/notation.hpp"
#include "proofs/catalog.hpp"

namespace layoutproof::cli {
int run_catalog(const std::vector<std::string>& args, std::ostream& out) {
  std::vector<std::string> rest;
  bool list = false;
  for (const auto& a : args) (a == "--list" ? list = true : (rest.push_back(a), false));
  const RunFlags flags = parse_run_flags(rest);
  if (!flags.positional.empty()) throw LayoutError("catalog takes no positional arguments (see --help)");
  if (list) {
    for (const auto& atom : proofs::builtin_catalog())
      out << atom.display_name() << "  " << atom.element_layout << "  (bytes: " << atom.byte_swizzle << ")  " << atom.used_in << "\n";
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<proofs::Check> checks = proofs::catalog_checks();
  const auto results = run_checks(checks, flags.run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return emit_results(out, "built-in catalog (CUTLASS shared-memory atoms)", results, wall, flags.out);
}

}  // namespace layoutproof::cli
