// Review finding (no property seed): the Z3 injective/surjective query for rasterizations ordered
// the two blocks by lin = by * gx + bx in 32 bits. Once gx * gy > 2^32 the order wraps, distinct
// blocks with equal wrapped lin are never compared, and a real collision was PROVED away:
// morton, grids up to 65537x65537, injective was PROVED although on the grid (65536, 65537)
// blocks (0,0) and (0,65536) have the same 32-bit block id and both land on tile (0,0).
// (The CLI caps --max-grid at 4096; prove_raster() itself takes any bound.)
// Fixed: the blocks are ordered as (y, x) pairs; lin only orders the minimization.
#include <gtest/gtest.h>

#include "model/raster/raster.hpp"
#include "proofs/raster/raster.hpp"

namespace layoutproof::proofs {
namespace {

TEST(Regression, RasterInjectiveLinWrap_morton65537) {
  // The model: the collision is real.
  const raster::Tile a = raster::morton(0, 0, 65536), b = raster::morton(0, 65536, 65536);
  ASSERT_EQ(a.x, b.x);
  ASSERT_EQ(a.y, b.y);

  RasterSubject s;
  s.kind = raster::Kind::morton;
  s.max_grid = 65537;
  ProveOptions o;
  o.engine = EngineChoice::z3;
  o.smt.timeout_ms = 5000;  // before the fix: PROVED in well under a second; after: never PROVED
  const RasterResult r = prove_raster(s, RasterClaim::injective, o);
  EXPECT_FALSE(r.verdict.is_proved()) << r.verdict.method << ": " << r.verdict.detail;
  // Z3 may time out on the 32-bit Morton decode (UNKNOWN); a REFUTED must replay on the model.
  if (r.verdict.is_refuted()) EXPECT_TRUE(r.witness.has_value());
}

}  // namespace
}  // namespace layoutproof::proofs
