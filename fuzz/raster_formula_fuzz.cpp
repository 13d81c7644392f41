// Fuzz target: the raster formula parser (model/raster/raster.hpp, `raster prove formula --formula`).
// Invariants: the node list is in dependency order (operands before users: the proofs and the GPU
// check rely on it), x and y are nodes, and evaluating it on a few grids is defined behaviour
// (UBSan watches the u32 arithmetic; x / 0 and shifts by 32 or more are defined as SMT-LIB does).
#include "fuzz/fuzz_common.hpp"
#include "model/raster/raster.hpp"

using namespace layoutproof;
using layoutproof::fuzz::accepted;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  raster::Formula f;
  if (!accepted([&] { f = raster::parse_formula(text); })) return 0;
  const int n = static_cast<int>(f.nodes.size());
  FUZZ_REQUIRE(f.x >= 0 && f.x < n && f.y >= 0 && f.y < n, "x and y are nodes", text, std::to_string(n));
  for (int i = 0; i < n; ++i)
    FUZZ_REQUIRE(f.nodes[i].a < i && f.nodes[i].b < i, "operands precede their users", text, std::to_string(i));
  for (const raster::u32 g : {1u, 3u, 0xFFFFFFFFu}) {
    const raster::Tile t = raster::eval_formula(f, g - 1, 0, g, 2, g);
    const raster::Tile u = raster::eval_formula(f, g - 1, 0, g, 2, g);
    FUZZ_REQUIRE(t.x == u.x && t.y == u.y, "evaluation is deterministic", text, "");
  }
  return 0;
}
