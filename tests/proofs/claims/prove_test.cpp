// tests/proofs/claims/prove_test.cpp: the layout claims (bijective, injective, surjective,
// contiguous, ...) on fixed layouts (proofs/claims/prove.hpp).
#include <gtest/gtest.h>

#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {
namespace {

ProveOptions with(EngineChoice e) {
  ProveOptions o;
  o.engine = e;
  return o;
}
Verdict run(const std::string& layout, const std::string& claim, EngineChoice e = EngineChoice::z3) {
  return prove(parse_subject(layout), parse_claim(claim), with(e));
}

TEST(SwizzleFamily, EverySwizzleWithAbsSAtLeastBIsABijection) {
  const Verdict v = prove_swizzle_family_bijective(SmtOptions{});
  EXPECT_EQ(v.kind, Verdict::Kind::proved) << v.detail;
}

// |S| < B: the read and written bits overlap. With S != 0 the map is still a bijection (a
// unipotent triangular map over GF(2)) but no longer an involution; with S == 0 it clears bits.
TEST(SwizzleFamily, AbsSBelowBIsRefutedWithAWitness) {
  Subject s;
  s.bare_swizzle = true;
  for (EngineChoice e : {EngineChoice::z3, EngineChoice::exhaustive}) {
    s.layout.swizzle = Swizzle{1, 0, 0};  // x ^ (x & 1): not injective
    const Verdict v = prove(s, parse_claim("bijective"), with(e));
    ASSERT_EQ(v.kind, Verdict::Kind::refuted) << v.detail;
    ASSERT_EQ(v.witness.points.size(), 2u);
    EXPECT_EQ(v.witness.points[0].offset, v.witness.points[1].offset);
    EXPECT_EQ(v.witness.points[0].coord, "0");
    EXPECT_EQ(v.witness.points[1].coord, "1");
    s.layout.swizzle = Swizzle{2, 0, 1};
    const Verdict inv = prove(s, parse_claim("involution"), with(e));
    ASSERT_EQ(inv.kind, Verdict::Kind::refuted) << inv.detail;
    EXPECT_EQ(inv.witness.points[0].offset, 4);  // Sw(4) = 6, Sw(6) = 5
    EXPECT_TRUE(prove(s, parse_claim("bijective"), with(e)).is_proved());
  }
}

TEST(Sm80Atom, BijectiveAndContiguous8ButNot16) {
  for (EngineChoice e : {EngineChoice::z3, EngineChoice::exhaustive}) {
    EXPECT_TRUE(run("Sw<3,3,3> o (8,64):(64,1)", "bijective", e).is_proved());
    const Verdict c8 = run("Sw<3,3,3> o (8,64):(64,1)", "contiguous:8", e);
    EXPECT_TRUE(c8.is_proved()) << c8.detail;
    EXPECT_EQ(c8.largest_v, 8);
    const Verdict c16 = run("Sw<3,3,3> o (8,64):(64,1)", "contiguous:16", e);
    ASSERT_TRUE(c16.is_refuted());
    EXPECT_FALSE(c16.witness.points.empty());
  }
}

TEST(Overlap, TwoByTwoUnitStridesIsRefutedWithAWitness) {
  for (const char* claim : {"injective", "bijective"}) {
    const Verdict v = run("(2,2):(1,1)", claim);
    ASSERT_TRUE(v.is_refuted());
    ASSERT_EQ(v.witness.points.size(), 2u);
    EXPECT_EQ(v.witness.points[0].index, 1);  // smallest index first
    EXPECT_EQ(v.witness.points[0].coord, "(1,0)");
    EXPECT_EQ(v.witness.points[1].index, 2);
    EXPECT_EQ(v.witness.points[0].offset, v.witness.points[1].offset);
  }
}

// bijective has one meaning for every form: a permutation of [0, size). A padded layout is
// REFUTED with or without a swizzle (a swizzled padded layout used to pass as "a permutation of the
// inner layout's image"); that property is swizzle-permutes, its own claim.
TEST(Claims, BijectiveMeansOntoZeroToSizeForEveryForm) {
  for (EngineChoice e : {EngineChoice::z3, EngineChoice::exhaustive}) {
    for (const char* l : {"(128,8):(1,129)", "Sw<0,0,0> o (128,8):(1,129)", "Sw<1,0,1> o (4,2):(1,8)",
                          "Sw<1,1,2> o smem_ptr[16b](unset) o (4,2):(1,8)"}) {
      const Verdict v = run(l, "bijective", e);
      ASSERT_EQ(v.kind, Verdict::Kind::refuted) << l << ": " << v.detail;
      ASSERT_EQ(v.witness.points.size(), 1u) << l;
      EXPECT_GE(v.witness.points[0].offset, size(parse_subject(l).layout.layout)) << l;
      EXPECT_EQ(v.witness.points[0].unit, "element");
      EXPECT_NE(v.witness.why.find("outside [0,"), std::string::npos) << v.witness.why;
      EXPECT_EQ(run(l, "swizzle-permutes", e).kind, Verdict::Kind::proved) << l;
    }
    // Compact layouts: both claims hold, swizzled or not.
    for (const char* l : {"(8,64):(64,1)", "Sw<3,3,3> o (8,64):(64,1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"}) {
      EXPECT_EQ(run(l, "bijective", e).kind, Verdict::Kind::proved) << l;
      EXPECT_EQ(run(l, "swizzle-permutes", e).kind, Verdict::Kind::proved) << l;
    }
    // A swizzle that moves an offset out of the inner layout's image: swizzle-permutes is
    // REFUTED with that offset. Sw<1,1,2> o (2,2):(1,8) = {0,1,8,9} -> 8 ^ (8>>2 & 2) = 10.
    const Verdict out = run("Sw<1,1,2> o (2,2):(1,8)", "swizzle-permutes", e);
    ASSERT_EQ(out.kind, Verdict::Kind::refuted) << out.detail;
    EXPECT_EQ(out.witness.why, "offset not in the inner layout's image");
    EXPECT_EQ(out.witness.points.at(0).offset, 10);
  }
}

TEST(Claims, NonPowerOfTwoAndEquivalence) {
  EXPECT_TRUE(run("(3,(5,7)):(35,(1,5))", "bijective").is_proved());
  EXPECT_TRUE(run("(3,5):(5,1)", "inverse:(5,3):(3,1)").is_proved());
  EXPECT_TRUE(run("(3,5):(5,1)", "equivalent:(3,5):(5,1)").is_proved());
  EXPECT_TRUE(run("(3,5):(5,1)", "equivalent:(3,5):(5,2)").is_refuted());
  EXPECT_TRUE(run("12:1", "surjective:12").is_proved());
  const Verdict s = run("(4,3):(1,5)", "surjective:12");
  ASSERT_TRUE(s.is_refuted());
  EXPECT_EQ(s.witness.points[0].offset, 4);  // the smallest missing offset
}

TEST(Claims, TmaSwizzle128BFormulaEquivalentToSw343) {
  // The TMA SWIZZLE_128B address of a (8,64) half tile is Sw<3,4,3> of the byte offset; in
  // elements of 2 bytes that is Sw<3,3,3> of the element offset (the 16-byte chunk XOR row % 8).
  EXPECT_TRUE(run("Sw<3,3,3> o (8,64):(64,1)", "equivalent:Sw<3,3,3> o 0 o (8,(8,8)):(64,(1,8))").is_proved());
}

TEST(Claims, BadInputThrows) {
  EXPECT_THROW(parse_claim("contiguous:0"), LayoutError);
  EXPECT_THROW(parse_claim("frobnicate"), LayoutError);
  EXPECT_THROW(parse_claim("equivalent:"), LayoutError);
}

TEST(Claims, PlainLayoutHasNoInvolution) {
  EXPECT_EQ(run("8:1", "involution").kind, Verdict::Kind::error);
}

TEST(Claims, LargeSwizzledBijectionIsProvedQuickly) {
  const Verdict v = run("Sw<3,4,3> o (32768,32768):(32768,1)", "bijective");
  EXPECT_TRUE(v.is_proved()) << v.detail;
  EXPECT_LT(v.time_ms, 1000.0);  // the 100 ms target is measured in bench/, not here
}

}  // namespace
}  // namespace layoutproof::proofs
