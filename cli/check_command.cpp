#include "cli/check_command.hpp"

#include <chrono>

#include "cli/layout_input.hpp"
#include "cli/results.hpp"
#include "cli/spec.hpp"

namespace layoutproof::cli {

namespace {

constexpr const char* kCheckHelp = R"(layoutproof check SPEC.yaml [-j N] [--json [FILE]] [--junit FILE] [--sarif FILE] [--markdown FILE]
                  [--report DIR] [--engine E] [--cache DIR | --no-cache] [--progress] [-D NAME=EXPR ...]
  Prove the claims of a spec file (docs/ci.md, examples/). A spec's layouts and kernels: may be CuTe
  notation or C++; the constants they use come from the spec's `constants:` map (NAME: C++ expression)
  and from -D NAME=EXPR, which adds to it and wins over it:
    constants:
      bM: Int<128>{}
      TileShape: Shape<_128,_128,_64>
    layouts:
      - name: sA
        layout: tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, get<2>(TileShape{})))
        claims: [bijective]
Exit codes: 0 all proved, 1 any refuted, 2 bad input, 3 unknown or error.
)";

}  // namespace

int run_check_command(const std::vector<std::string>& args, std::ostream& out) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      out << kCheckHelp << cpp_input_help("layoutproof check spec.yaml -D", "'bM=Int<64>{}'");
      return 0;
    }
  const RunFlags flags = parse_run_flags(args);
  if (flags.positional.size() != 1) throw LayoutError("usage: layoutproof check SPEC [flags] (see --help)");
  const std::string& path = flags.positional[0];
  const auto t0 = std::chrono::steady_clock::now();
  const auto checks = load_spec(path, flags.constants);
  const auto results = run_checks(checks, flags.run);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return emit_results(out, path, results, wall, flags.out);
}

}  // namespace layoutproof::cli
