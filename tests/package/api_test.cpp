// include/layoutproof/layoutproof.hpp and gtest.hpp in-tree: the facade gives the verdicts the
// CLI gives (same layouts as README.md's examples), located errors as values, traces.
#include "layoutproof/gtest.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#include "layoutproof/layoutproof.hpp"

namespace lp = layoutproof::api;

namespace {

const char* const kAtom = "Sw<3,3,3> o (8,64):(64,1)";
const char* const kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
const char* const kLdsmA = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)";
const char* const kStaged =
    "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{},Int<3>{}))";

// A Layout or Trace always holds one: only parse_layout and trace make them.
static_assert(!std::is_default_constructible_v<lp::Layout>);
static_assert(!std::is_default_constructible_v<lp::Trace>);
static_assert(std::is_copy_constructible_v<lp::Layout> && std::is_copy_constructible_v<lp::Trace>);

TEST(Api, VersionIsTheProjectVersion) {
  EXPECT_EQ(layoutproof::version(), LAYOUTPROOF_TEST_VERSION);
  EXPECT_EQ(lp::version(), layoutproof::version());
}

TEST(Api, ParsesNotationAndCpp) {
  const auto a = lp::parse_layout(kAtom);
  ASSERT_TRUE(a.ok());
  const auto b = lp::parse_layout("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,Int<BK>>,Stride<Int<BK>,_1>>{})", {{"BK", "64"}});
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_EQ(a->size(), 512);
  EXPECT_EQ(b->size(), 512);
  for (long long i = 0; i < 512; ++i) ASSERT_EQ(a->offset(i), b->offset(i)) << i;
  EXPECT_EQ(a->offset(1), 72);  // (1,0) -> 64, swizzled: 64 ^ (64>>3 & 0b111000) = 72
  EXPECT_THROW((void)a->offset(512), std::out_of_range);
  const auto sw = lp::parse_layout("Sw<3,4,3>");
  ASSERT_TRUE(sw.ok());
  EXPECT_TRUE(sw->is_bare_swizzle());
}

TEST(Api, ParseErrorsAreLocatedValues) {
  const auto bad = lp::parse_layout("(8,64):(64,1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().column, 13u);
  EXPECT_NE(bad.error().message.find("column 13"), std::string::npos) << bad.error().message;
  EXPECT_EQ(bad.error().caret(), "  (8,64):(64,1\n              ^");
  EXPECT_THROW((void)bad.value(), std::logic_error);
}

TEST(Api, VerdictsAreValues) {
  const auto a = lp::parse_layout(kAtom);
  ASSERT_TRUE(a.ok());
  const lp::Verdict p = lp::prove(*a, "bijective");
  EXPECT_EQ(p.outcome, lp::Outcome::proved) << p;
  EXPECT_EQ(p.detail, "injective, image = [0,512)");
  const lp::Verdict r = lp::prove(*a, "contiguous:16");
  ASSERT_EQ(r.outcome, lp::Outcome::refuted) << r;
  ASSERT_FALSE(r.witness.points.empty());
  EXPECT_EQ(r.witness.points[0].index, 1);
  EXPECT_EQ(r.witness.points[0].offset, 72);
  EXPECT_NE(r.to_string().find("witness: x: index 1 (1,0) -> element 72"), std::string::npos) << r;
  EXPECT_EQ(r.largest_v, 8);
}

TEST(Api, BadClaimsAreBadInputErrors) {
  const lp::Verdict v = lp::prove(kAtom, "bijektive");
  EXPECT_EQ(v.outcome, lp::Outcome::error);
  EXPECT_TRUE(v.bad_input);
  const lp::Verdict l = lp::prove("(8,64):(64,1", "bijective");
  EXPECT_EQ(l.outcome, lp::Outcome::error);
  EXPECT_TRUE(l.bad_input);
  EXPECT_NE(l.detail.find("^"), std::string::npos) << l.detail;  // the caret travels with it
}

TEST(Api, EnginesAgree) {
  lp::Options z3, ex;
  z3.engine = lp::Engine::z3;
  ex.engine = lp::Engine::exhaustive;
  for (const char* claim : {"injective", "bijective", "contiguous:8", "contiguous:16"}) {
    const lp::Verdict a = lp::prove(kAtom, claim, z3), b = lp::prove(kAtom, claim, ex);
    EXPECT_EQ(a.outcome, b.outcome) << a << "\n" << b;
    EXPECT_NE(a.method.find("z3"), std::string::npos) << a;
  }
}

TEST(Api, EquivalentTakesCppWithConstants) {
  lp::Options o;
  o.constants = {{"BK", "64"}};
  EXPECT_PROVED_WITH(kAtom, "equivalent:composition(Swizzle<3,3,3>{}, Layout<Shape<_8,Int<BK>>,Stride<Int<BK>,_1>>{})", o);
  EXPECT_REFUTED("(8,64):(64,1)", "equivalent:(8,64):(1,8)");
}

TEST(Api, TracesAKernelCopy) {
  const auto t = lp::trace(kStaged, kLdsmA, kMma, "half_t", lp::Side::S);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->instructions().size(), 192u);
  EXPECT_EQ(t->op(), "ldsm4");
  EXPECT_EQ(t->width_bytes(), 16);
  EXPECT_EQ(t->threads(), 128);
  EXPECT_EQ(t->instructions()[0].addr[0], 0);
  EXPECT_NE(t->to_json().find("\"instructions\""), std::string::npos);
  for (const char* c : {"conflict-free", "vector-legal", "covers"}) {
    const lp::Verdict v = lp::prove(*t, c);
    EXPECT_TRUE(v.proved()) << v;
  }
  const lp::Verdict bad = lp::prove(*t, "bijective");
  EXPECT_TRUE(bad.bad_input) << bad;
}

TEST(Api, TraceRefutationCarriesLanes) {
  const auto t = lp::trace("(128,64,3):(64,1,8192)", kLdsmA, kMma, "half_t", lp::Side::S);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const lp::Verdict v = lp::prove(*t, "conflict-free");
  ASSERT_TRUE(v.refuted()) << v;
  EXPECT_GE(v.witness.lanes.size(), 2u);
  EXPECT_GT(v.witness.wavefronts, v.witness.ideal);
  EXPECT_FALSE(v.witness.why.empty());
}

TEST(Api, TraceInputErrorsAreValues) {
  const auto elem = lp::trace(kStaged, kLdsmA, kMma, "float", lp::Side::S);
  ASSERT_FALSE(elem.ok());
  EXPECT_NE(elem.error().message.find("32 bits"), std::string::npos) << elem.error().message;
  const auto type = lp::trace(kStaged, kLdsmA, kMma, "halfy", lp::Side::S);
  ASSERT_FALSE(type.ok());
  const auto copy = lp::trace(kStaged, "make_tiled_copy_A(Copy_Atom<NoSuchOp, half_t>{}, mma)", kMma, "half_t", lp::Side::S);
  ASSERT_FALSE(copy.ok());
}

TEST(Api, GtestHelpers) {
  EXPECT_PROVED(kAtom, "bijective");
  ASSERT_PROVED(kAtom, "contiguous:8");
  EXPECT_REFUTED(kAtom, "contiguous:16");
  // The failure message carries the verdict and its witness.
  const auto r = lp::testing::is_proved("kAtom", "\"contiguous:16\"", "o", kAtom, "contiguous:16", {});
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("is not PROVED"), std::string::npos) << r.message();
  EXPECT_NE(std::string(r.message()).find("witness: x: index 1 (1,0) -> element 72"), std::string::npos) << r.message();
  // UNKNOWN/ERROR is neither PROVED nor REFUTED.
  EXPECT_FALSE(lp::testing::is_refuted("l", "c", "o", kAtom, "bijektive", {}));
}

}  // namespace
