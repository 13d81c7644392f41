// Model finding from Product.BlockedAndRakedPermuteLogical, seed 8037737274593241144:
// shrunk counterexample A = (3):(1), B = 8:1 (and, seed 4184178968657426419, A = ((8)):((1)), B = 4:1).
// blocked_product/raked_product throw "zip: mismatched ranks" when one operand is a rank-1 tuple
// and the other an integer layout. CuTe's append<1> keeps the integer, and cute::zip reads
// get<0> of an integer as the integer itself, so CuTe returns a layout here: the expected value
// below follows that reading.
// Fixed: zip reads an integer operand as rank 1. CuTe 4.x zips without coalescing, so the
// result is ((3,8)):((1,3)).
// Corrected (against CuTe itself): that reading was wrong. CuTe's zip takes tuple_size of
// both operands, so blocked_product((_3):(_1), _8:_1) and raked_product(_8:_1, (_3):(_1)) do not
// compile ("incomplete type cute::tuple_size<cute::C<8>>"); the model refuses them, naming it.
#include <gtest/gtest.h>

#include "model/layout/notation.hpp"
#include "model/algebra/tiling.hpp"

namespace layoutproof {
namespace {

TEST(Regression, BlockedProductRank1TupleWithInteger_seed8037737274593241144) {
  const Layout a = parse_layout("(3):(1)");
  const Layout b = parse_layout("8:1");
  EXPECT_THROW((void)blocked_product(a, b), LayoutError);
  EXPECT_THROW((void)raked_product(b, a), LayoutError);
  try {
    (void)blocked_product(a, b);
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("compile error in CuTe"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace layoutproof
