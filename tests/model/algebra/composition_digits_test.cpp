// Tests for model/algebra/composition_digits.hpp: the header's examples, the cases it must leave to
// enumeration, and its @post against brute force on random compositions, right and deliberately wrong.
#include "model/algebra/composition_digits.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "model/algebra/algebra.hpp"
#include "model/algebra/tiling.hpp"
#include "model/layout/notation.hpp"
#include "tests/model/random_layout.hpp"
#include "tests/model/reference.hpp"

namespace layoutproof {
namespace {

using namespace layoutproof::testing;

bool digits(const std::string& a, const std::string& b, const std::string& r) {
  return composition_holds_by_digits(L(a), L(b), L(r));
}

// R(c) == A(B(c)) for every c < size(B), by the tests' own evaluation.
bool holds_brute_force(const Layout& a, const Layout& b, const Layout& r) {
  for (i64 c = 0; c < ref_size(b); ++c)
    if (ref_eval(r, c) != ref_eval(a, ref_eval(b, c))) return false;
  return true;
}

TEST(CompositionDigits, HeaderExamples) {
  EXPECT_TRUE(digits("(8,4):(1,100)", "(2,4):(1,2)", "(2,4):(1,2)"));
  EXPECT_FALSE(digits("(8,4):(1,100)", "(2,4):(1,2)", "(2,4):(1,3)"));
  // B(5) = 12 carries into A's second mode: R(5) = 12 but A(12) = 100.
  EXPECT_FALSE(digits("(12,2):(1,100)", "(3,2,4096):(3,6,0)", "(3,2,4096):(3,6,0)"));
  EXPECT_FALSE(holds_brute_force(L("(12,2):(1,100)"), L("(3,2,4):(3,6,0)"), L("(3,2,4):(3,6,0)")));
}

TEST(CompositionDigits, LeafInsideOneDigitWithItsStride) {
  // A's digits: 4:2 then (2,3):(8,16) merged into 6:8 (16 == 2 * 8), the last unbounded.
  EXPECT_TRUE(digits("(4,(2,3)):(2,(8,16))", "(2,12):(2,4)", "(2,(6,2)):(4,(8,48))"));
  EXPECT_TRUE(holds_brute_force(L("(4,(2,3)):(2,(8,16))"), L("(2,12):(2,4)"), L("(2,(6,2)):(4,(8,48))")));
  // The last digit is unbounded: A = 4:3 read at 8 * t for t < 100 is 24 * t.
  EXPECT_TRUE(digits("4:3", "(2,100):(1,8)", "(2,100):(3,24)"));
  // A stride-0 leaf of B adds nothing to B(c), so R's leaf must add nothing either.
  EXPECT_TRUE(digits("(8,4):(1,8)", "(8,5):(1,0)", "(8,5):(1,0)"));
  EXPECT_FALSE(digits("(8,4):(1,8)", "(8,5):(1,0)", "(8,5):(1,1)"));
}

TEST(CompositionDigits, LeavesToEnumeration) {
  EXPECT_FALSE(digits("(8,4):(1,8)", "(4,2):(2,1)", "(4,2):(2,2)"));   // wrong stride of R
  EXPECT_FALSE(digits("(8,4):(1,100)", "(3,4):(3,12)", "(3,4):(3,12)"));  // w = 12 is no digit multiple
  EXPECT_FALSE(digits("(8,4):(1,8)", "4:-1", "4:-1"));                    // negative B stride
  const Layout zero = raw_layout(tup({T(8), T(0), T(4)}), tup({T(1), T(8), T(8)}));
  EXPECT_FALSE(composition_holds_by_digits(zero, L("8:1"), L("8:1")));          // a mode of size 0
  EXPECT_FALSE(digits("(8,4):(1,8)", "(2,4):(1,2)", "((2,4)):((1,2))"));   // not compatible
  EXPECT_FALSE(digits("(4,4):(_1@0,_1@1)", "4:1", "4:_1@0"));               // basis strides
  // R(c) up to 2^61 + 3 * 2^62 passes 64 bits: not shown, so the enumeration meets and reports the overflow.
  EXPECT_TRUE(digits("4:2305843009213693952", "(2,2):(1,2)", "(2,2):(2305843009213693952,4611686018427387904)"));
  EXPECT_FALSE(digits("4:2305843009213693952", "(2,4):(1,2)", "(2,4):(2305843009213693952,4611686018427387904)"));
}

// @post: true implies R(c) == A(B(c)) for every c, for CuTe's results and for wrong ones; and the
// proof is not vacuous: it shows most of CuTe's results (the rest are enumerated).
TEST(CompositionDigits, ProvedImpliesDefinitionOnRandomCompositions) {
  std::mt19937 rng(20261201);
  int composed = 0, proved = 0, wrong = 0;
  for (int n = 0; n < 2000; ++n) {
    const Layout a = random_layout(rng), b = random_layout(rng);
    Layout r;
    try {
      r = composition_cute(a, b);
    } catch (const LayoutError&) {
      continue;
    }
    if (ref_size(b) > 4096) continue;
    ++composed;
    if (composition_holds_by_digits(a, b, r)) {
      ++proved;
      ASSERT_TRUE(holds_brute_force(a, b, r)) << to_string(a) << " o " << to_string(b) << " = " << to_string(r);
    }
    const std::size_t leaf = static_cast<std::size_t>(n) % leaves(r.shape).size();
    const Layout bad = with_stride_changed(r, leaf);
    if (holds_brute_force(a, b, bad)) continue;
    ++wrong;
    EXPECT_FALSE(composition_holds_by_digits(a, b, bad)) << to_string(a) << " o " << to_string(b) << " != " << to_string(bad);
  }
  EXPECT_GT(composed, 1000);
  EXPECT_GT(proved, composed * 3 / 4) << proved << " of " << composed;  // 1,288 of 1,353 when written
  EXPECT_GT(wrong, composed / 2);
}

// The composition step of the slow logical_divide (its domain is 3,145,728 elements) is shown
// without enumeration, and a wrong result of it is not.
TEST(CompositionDigits, LargeDivideStep) {
  const Layout l = L("((8,(4,2,3),(4,1,1)),((8),4),((4,4,4),(2,1,1))):((393216,(16,1,4096),(24576,25165824,0)),"
                     "((3145728),1024),((64,2,256),(196608,4096,0)))");
  const Layout tile = L("(2,2):(1,4)");
  const Layout b = concat_layouts({tile, complement(tile, coalesce(l).shape)});
  const Layout r = composition_cute(l, b);
  EXPECT_TRUE(composition_holds_by_digits(l, b, r));
  EXPECT_FALSE(composition_holds_by_digits(l, b, with_stride_changed(r, 3)));
}

}  // namespace
}  // namespace layoutproof
