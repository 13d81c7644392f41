// Fuzz target: the spec loader (`layoutproof check FILE`: YAML text -> checks, cli/spec/spec.hpp), with
// the YAML nesting pre-scan (cli/spec/yaml_guard.hpp). It builds the checks (layouts, bank subjects,
// kernel traces) but proves nothing. Invariant: every check names its file and a line in it.
#include "cli/spec/spec.hpp"
#include "fuzz/fuzz_common.hpp"

using namespace layoutproof;
using layoutproof::fuzz::accepted;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string text = fuzz::text_of(data, size);
  std::vector<proofs::Check> checks;
  if (!accepted([&] { checks = cli::parse_spec(text, "fuzz.yaml"); })) return 0;
  for (const proofs::Check& c : checks)
    FUZZ_REQUIRE(c.origin.where.file == "fuzz.yaml" && c.origin.where.line >= 1, "a check is located in its spec", c.name, c.origin.where.file);
  return 0;
}
