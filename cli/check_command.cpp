#include "cli/check_command.hpp"

#include <chrono>

#include "cli/results.hpp"
#include "cli/spec.hpp"

namespace layoutproof::cli {

int run_check_command(const std::vector<std::string>& args, std::ostream& out) {
  const RunFlags flags = parse_run_flags(args);
  if (flags.positional.size() != 1) throw LayoutError("usage: layoutproof check SPEC [flags] (see --help)");
  const std::string& path = flags.positional[0];
  const auto t0 = std::chrono::steady_clock::now();
  const auto checks = load_spec(path);
  const auto results = run_checks(checks, flags.run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return emit_results(out, path, results, wall, flags.out);
}

}  // namespace layoutproof::cli
