// tests/raster: model/raster/raster.hpp (the seed's function, CUTLASS's identity swizzle, Morton, the
// formula language), proofs/raster/raster.hpp (Z3 verdicts, replay, agreement with the exhaustive twin)
// and the locality figure on a case computed by hand.
#include <gtest/gtest.h>

#include <memory>

#include "model/layout/notation.hpp"
#include "model/raster/raster.hpp"
#include "proofs/raster/raster.hpp"

namespace {

using namespace layoutproof;
using namespace layoutproof::raster;
using proofs::RasterClaim;
using proofs::RasterSubject;
using proofs::RasterWitness;

RasterSubject subject(Kind k, u32 max_grid, std::optional<u32> param = std::nullopt, const char* formula = nullptr) {
  RasterSubject s;
  s.kind = k;
  s.max_grid = max_grid;
  s.param = param;
  if (formula) s.formula = std::make_shared<const Formula>(parse_formula(formula));
  return s;
}

proofs::ProveOptions z3_opts() {
  proofs::ProveOptions o;
  o.engine = proofs::EngineChoice::z3;
  o.smt.timeout_ms = 60000;
  return o;
}

TEST(RasterModel, SeedAsWrittenCollidesOnGrid1x2) {
  const Tile a = seed_swizzle(0, 0, 1, 2, 1), b = seed_swizzle(0, 1, 1, 2, 1);
  EXPECT_EQ(a.x, 0u);
  EXPECT_EQ(a.y, 0u);
  EXPECT_EQ(b.x, 0u);
  EXPECT_EQ(b.y, 0u);  // strip_flat_idx 1 / gridDim.y 2 = 0: the article's bug
  const Tile fixed = seed_swizzle(0, 1, 1, 2, 1, true);
  EXPECT_EQ(fixed.y, 1u);
}

TEST(RasterModel, SeedOnTheArticlesSquareGridWalksStripsOfFourColumns) {
  // 8x8 grid, tile_size 4: blocks 0..3 fill row 0 of strip 0, block 4 starts row 1.
  EXPECT_EQ(seed_swizzle(3, 0, 8, 8, 4).x, 3u);
  EXPECT_EQ(seed_swizzle(4, 0, 8, 8, 4).x, 0u);
  EXPECT_EQ(seed_swizzle(4, 0, 8, 8, 4).y, 1u);
  EXPECT_EQ(seed_swizzle(0, 4, 8, 8, 4).x, 4u);  // block 32: strip 1
  EXPECT_EQ(seed_swizzle(0, 4, 8, 8, 4).y, 0u);
}

TEST(RasterModel, CutlassIdentitySwizzle) {
  EXPECT_EQ(cutlass_grid(3, 5, 1).x, 6u);
  EXPECT_EQ(cutlass_grid(3, 5, 1).y, 3u);
  const Tile t = cutlass_identity(5, 2, 1);  // m = 5 >> 1, n = (2 << 1) + (5 & 1)
  EXPECT_EQ(t.x, 2u);
  EXPECT_EQ(t.y, 5u);
}

TEST(RasterModel, MortonDecodesEvenAndOddBits) {
  EXPECT_EQ(compact_even_bits(0b10101u), 0b111u);
  EXPECT_EQ(compact_even_bits(0b1011u), 0b1u);
  const Tile t = morton(3, 1, 4);  // bid 7 = 0b0111: x = bits 0,2 = 0b11, y = bit 1 = 1
  EXPECT_EQ(t.x, 3u);
  EXPECT_EQ(t.y, 1u);
}

TEST(RasterFormula, ParsesLetsAndEvaluatesLikeCpp) {
  const Formula f = parse_formula("bid = blockIdx.y * gridDim.x + blockIdx.x; x = bid % 4; y = bid / 4");
  const Tile t = eval_formula(f, 3, 2, 5, 7, 1);  // bid 13
  EXPECT_EQ(t.x, 1u);
  EXPECT_EQ(t.y, 3u);
  const Formula g = parse_formula("x = min(1 << 3 | 1, 20) ^ 2; tile_y = max(gridDim.y - 1, tile_size) & 7");
  EXPECT_EQ(eval_formula(g, 0, 0, 1, 4, 9).x, 11u);
  EXPECT_EQ(eval_formula(g, 0, 0, 1, 4, 9).y, 1u);
  EXPECT_TRUE(g.uses_tile_size);
  // A divisor that is 0 at run time follows SMT-LIB (x / 0 = 2^32 - 1, x % 0 = x); a literal 0 is refused.
  const Formula z = parse_formula("x = 5 / (blockIdx.x * 2); y = 5 % blockIdx.x + (1 << 40)");
  EXPECT_EQ(eval_formula(z, 0, 0, 1, 1, 1).x, 0xFFFFFFFFu);
  EXPECT_EQ(eval_formula(z, 0, 0, 1, 1, 1).y, 5u);
  EXPECT_THROW((void)parse_formula("x = 5 / 0; y = 0"), ParseError);
  EXPECT_THROW((void)parse_formula("x = 0; y = blockIdx.y % (0)"), ParseError);
}

TEST(RasterFormula, ErrorsPointAtTheColumn) {
  try {
    (void)parse_formula("x = blockIdx.z; y = 0");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, 5u);
  }
  try {
    (void)parse_formula("x = 1 +* 2; y = 0");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.column, 8u);
  }
  EXPECT_THROW((void)parse_formula("x = 1"), ParseError);           // no y
  EXPECT_THROW((void)parse_formula("x = 1; x = 2; y = 0"), ParseError);  // bound twice
  EXPECT_THROW((void)parse_formula("x = (1; y = 0"), ParseError);
}

TEST(RasterProve, SeedAsWrittenIsRefutedWithAReplayedCollision) {
  const auto r = proofs::prove_raster(subject(Kind::seed, 8), RasterClaim::bijective, z3_opts());
  ASSERT_TRUE(r.verdict.is_refuted()) << r.verdict.detail;
  ASSERT_TRUE(r.witness);
  EXPECT_EQ(r.witness->what, RasterWitness::What::collision);
  EXPECT_EQ(r.witness->p0, 1u);
  EXPECT_EQ(r.witness->p1, 2u);
  EXPECT_EQ(r.witness->param, 1u);
  EXPECT_EQ(r.witness->b.y, 1u);
}

TEST(RasterProve, SeedFixedIsProvedForSmallGrids) {
  const auto r = proofs::prove_raster(subject(Kind::seed_fixed, 6), RasterClaim::bijective, z3_opts());
  EXPECT_TRUE(r.verdict.is_proved()) << r.verdict.method << " " << r.verdict.detail;
  EXPECT_NE(r.verdict.detail.find("grids up to 6x6"), std::string::npos);
}

TEST(RasterProve, CutlassIsInjectiveAndSurjectiveButLaunchesNoOpBlocks) {
  const auto s = subject(Kind::cutlass, 64);
  EXPECT_TRUE(proofs::prove_raster(s, RasterClaim::injective, z3_opts()).verdict.is_proved());
  EXPECT_TRUE(proofs::prove_raster(s, RasterClaim::surjective, z3_opts()).verdict.is_proved());
  const auto r = proofs::prove_raster(s, RasterClaim::in_bounds, z3_opts());
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_EQ(r.witness->p0, 1u);
  EXPECT_EQ(r.witness->p1, 1u);
  EXPECT_EQ(r.witness->param, 1u);
  EXPECT_EQ(r.witness->tile.y, 1u);  // n = 1 outside n_tiles = 1
  EXPECT_TRUE(proofs::prove_raster(subject(Kind::cutlass, 64, 0), RasterClaim::bijective, z3_opts()).verdict.is_proved());
}

TEST(RasterProve, MortonLeavesTheGridWhenNotAPowerOfTwo) {
  const auto r = proofs::prove_raster(subject(Kind::morton, 64), RasterClaim::bijective, z3_opts());
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_EQ(r.witness->what, RasterWitness::What::out_of_bounds);
  EXPECT_EQ(r.witness->p0, 1u);
  EXPECT_EQ(r.witness->p1, 2u);
  EXPECT_TRUE(proofs::prove_raster(subject(Kind::morton, 64), RasterClaim::injective, z3_opts()).verdict.is_proved());
}

TEST(RasterProve, SurjectiveWitnessIsAMissingTile) {
  const auto r = proofs::prove_raster(subject(Kind::seed, 8), RasterClaim::surjective, z3_opts());
  ASSERT_TRUE(r.verdict.is_refuted());
  EXPECT_EQ(r.witness->what, RasterWitness::What::missing);
  EXPECT_EQ(r.witness->tile.x, 0u);
  EXPECT_EQ(r.witness->tile.y, 1u);
}

// Z3 and the exhaustive twin agree: same verdict and, when refuted, the same minimal witness.
TEST(RasterAgreement, Z3MatchesExhaustive) {
  struct Case {
    Kind k;
    u32 max;
    const char* formula;
  };
  const Case cases[] = {{Kind::row_major, 6, nullptr}, {Kind::seed, 5, nullptr},   {Kind::seed_fixed, 5, nullptr},
                        {Kind::cutlass, 6, nullptr},   {Kind::morton, 8, nullptr}, {Kind::formula, 6, "x = (blockIdx.x + blockIdx.y) % gridDim.x; y = blockIdx.y"},
                        {Kind::formula, 6, "bid = blockIdx.y * gridDim.x + blockIdx.x; x = bid % 4; y = bid / 4"}};
  proofs::ProveOptions ex;
  ex.engine = proofs::EngineChoice::exhaustive;
  for (const Case& c : cases)
    for (RasterClaim claim : {RasterClaim::in_bounds, RasterClaim::injective, RasterClaim::surjective, RasterClaim::bijective}) {
      const auto s = subject(c.k, c.max, std::nullopt, c.formula);
      const auto a = proofs::prove_raster(s, claim, z3_opts()), b = proofs::prove_raster(s, claim, ex);
      SCOPED_TRACE(s.text() + " " + proofs::to_string(claim));
      ASSERT_EQ(a.verdict.kind, b.verdict.kind) << a.verdict.detail << " | " << b.verdict.detail;
      if (a.witness) {
        ASSERT_TRUE(b.witness);
        EXPECT_EQ(a.witness->describe(s), b.witness->describe(s));
      }
    }
}

// --engine auto enumerates small domains and, once a part is violated, the grids below its witness:
// the same verdicts and witnesses as Z3 alone (H5a: `seed --tile-size 65536` took 20 s in Z3; tests/raster/raster_cli_test.sh runs it).
TEST(RasterAgreement, AutoMatchesZ3) {
  proofs::ProveOptions au;
  au.engine = proofs::EngineChoice::automatic;
  const RasterSubject cases[] = {subject(Kind::seed, 8, 4), subject(Kind::seed, 8), subject(Kind::seed_fixed, 6),
                                 subject(Kind::cutlass, 64), subject(Kind::morton, 64), subject(Kind::row_major, 64)};
  for (const RasterSubject& s : cases)
    for (RasterClaim claim : {RasterClaim::bijective}) {
      const auto a = proofs::prove_raster(s, claim, z3_opts()), b = proofs::prove_raster(s, claim, au);
      SCOPED_TRACE(s.text() + " " + proofs::to_string(claim));
      ASSERT_EQ(a.verdict.kind, b.verdict.kind) << a.verdict.detail << " | " << b.verdict.detail;
      ASSERT_EQ(a.witness.has_value(), b.witness.has_value());
      if (a.witness) EXPECT_EQ(a.witness->describe(s), b.witness->describe(s));
    }
  // A bijective claim refuted in Z3's first part decides the others on the grids below its witness.
  const auto m = proofs::prove_raster(subject(Kind::morton, 256), RasterClaim::bijective, au);
  ASSERT_TRUE(m.verdict.is_refuted());
  EXPECT_NE(m.verdict.method.find("exhaustive below the first witness"), std::string::npos) << m.verdict.method;
}

TEST(RasterLocality, TinyCaseByHand) {
  // 256x512x64, 128x128x64 tiles: 2x4 tiles; row-major on 3 SMs: waves {(m0:n0,n1,n2)},
  // {(m0:n3),(m1:n0,n1)}, {(m1:n2,n3)}: A tiles 1+2+1 = 4, B tiles 3+3+2 = 8; each tile 128*64*2 B.
  const Locality l = locality(Raster{Kind::row_major, 0, nullptr}, GemmShape{256, 512, 64}, TileShape{}, 2, 3);
  EXPECT_EQ(l.waves, 3);
  EXPECT_EQ(l.total_a, 4);
  EXPECT_EQ(l.total_b, 8);
  EXPECT_EQ(l.max_a, 2);
  EXPECT_EQ(l.max_b, 3);
  EXPECT_EQ(l.bytes_a, 4 * 128 * 64 * 2);
  EXPECT_EQ(l.bytes_b, 8 * 128 * 64 * 2);
  // CUTLASS log_tile 1 on the same problem: launch (4,2); ids 0..2 -> (m,n) (0,0),(0,1),(1,0).
  const Locality c = locality(Raster{Kind::cutlass, 1, nullptr}, GemmShape{256, 512, 64}, TileShape{}, 2, 3);
  EXPECT_EQ(c.launch.x, 4u);
  EXPECT_EQ(c.launch.y, 2u);
  EXPECT_EQ(c.total_a, 5);
  EXPECT_EQ(c.total_b, 7);
}

}  // namespace
