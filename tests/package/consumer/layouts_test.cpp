// A kernel project's unit tests of its shared-memory layouts, with layoutproof's GoogleTest helpers.
#include <layoutproof/gtest.hpp>

TEST(SmemLayouts, SwizzledAtomIsABijection) {
  EXPECT_PROVED("Sw<3,3,3> o (8,64):(64,1)", "bijective");
  ASSERT_PROVED("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", "contiguous:8");
}

TEST(SmemLayouts, SixteenElementVectorsAreSplit) {
  EXPECT_REFUTED("Sw<3,3,3> o (8,64):(64,1)", "contiguous:16");
}

TEST(SmemLayouts, CppWithConstants) {
  layoutproof::api::Options o;
  o.constants = {{"bM", "Int<128>{}"}, {"bK", "Int<64>{}"}, {"Stages", "4"}};
  EXPECT_PROVED_WITH("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, bK, Int<Stages>{}))",
                     "bijective", o);
}

// Fails on purpose: consumer_test.sh runs it alone and checks that the failure message carries
// the verdict and its replayed witness. Excluded from the normal run (--gtest_filter=-Demo*).
TEST(DemoFailure, ShowsTheWitness) {
  EXPECT_PROVED("Sw<3,3,3> o (8,64):(64,1)", "contiguous:16");
}
