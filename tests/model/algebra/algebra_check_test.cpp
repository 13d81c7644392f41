// Tests for model/algebra/algebra_check.hpp: each check fed deliberately wrong results, with `exact`
// claimed, refuses them naming the condition and the first place it breaks (check_composition small
// and large, check_complement, check_right_inverse, check_left_inverse); right results of large
// domains pass; past 2^22 elements an unproven composition is still refused.
#include "model/algebra/algebra_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/algebra/algebra.hpp"
#include "model/algebra/composition_digits.hpp"
#include "model/layout/notation.hpp"
#include "tests/model/reference.hpp"

namespace layoutproof {
namespace {

using namespace layoutproof::testing;

// The message check_composition throws, or "" when it accepts r.
std::string refusal(const Layout& a, const Layout& b, const Layout& r, bool exact) {
  try {
    check_composition(a, b, r, exact);
    return "";
  } catch (const LayoutError& e) {
    return e.what();
  }
}

bool says(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

TEST(CheckComposition, RefusesTheSumOfExactModes) {
  // Each mode of B divides A exactly, but B(5) = 12 crosses A's first mode: R(5) = 12, A(12) = 100.
  const Layout a = L("(12,2):(1,100)"), b = L("(3,2,4096):(3,6,0)");
  const std::string m = refusal(a, b, b, true);
  EXPECT_TRUE(says(m, "breaks \"R(c) == A(B(c))\" at c = 5: R(c) = 12 but A(B(c)) = 100")) << m;
  EXPECT_THROW((void)composition(a, b), LayoutError);
}

TEST(CheckComposition, RefusesAWrongSmallResult) {
  const std::string m = refusal(L("(8,4):(1,8)"), L("(4,2):(2,1)"), L("(4,2):(2,2)"), true);
  EXPECT_TRUE(says(m, "at c = 4: R(c) = 2 but A(B(c)) = 1")) << m;
}

const char* kLarge = "((8,(4,2,3),(4,1,1)),((8),4),((4,4,4),(2,1,1))):((393216,(16,1,4096),(24576,25165824,0)),"
                     "((3145728),1024),((64,2,256),(196608,4096,0)))";

// The composition step of logical_divide(kLarge, (2,2):(1,4)): 3,145,728 elements, four long modes of B.
TEST(CheckComposition, LargeDomainRightAndWrong) {
  const Layout a = L(kLarge), tile = L("(2,2):(1,4)");
  const Layout b = concat_layouts({tile, complement(tile, coalesce(a).shape)});
  const Layout r = composition_cute(a, b);
  ASSERT_EQ(size(b), 3145728);
  EXPECT_EQ(refusal(a, b, r, true), "");
  EXPECT_EQ(refusal(a, b, r, false), "");
  // Mode 1 of the tile moved from offset 1572864 to 1572865: wrong from c = 2 on.
  const Layout bad = raw_layout(r.shape, tup({tup({T(393216), T(1572865)}), r.stride[1]}));
  const std::string m = refusal(a, b, bad, true);
  EXPECT_TRUE(says(m, "at c = 2: R(c) = 1572865 but A(B(c)) = 1572864")) << m;
  // R's leaf 4:64 (below it 24,576 elements) with stride 128: right on c < 24576 and wrong first there.
  std::size_t k = 0;
  const Layout late = raw_layout(r.shape, map_leaves(r.stride, [&](const IntTuple& d) { return k++ == 9 ? T(128) : d; }));
  ASSERT_EQ(leaves(r.stride)[9], 64);
  const std::string m2 = refusal(a, b, late, true);
  EXPECT_TRUE(says(m2, "at c = 24576: R(c) = 128 but A(B(c)) = 64")) << m2;
}

// R's offsets pass 64 bits (2^61 + 3 * 2^62): reported as the overflow it is, not as a broken index.
TEST(CheckComposition, OverflowInTheOffsetsIsReported) {
  EXPECT_THROW(check_composition(L("4:2305843009213693952"), L("(2,4):(1,2)"),
                                 L("(2,4):(2305843009213693952,4611686018427387904)"), false),
               OverflowError);
}

TEST(CheckComposition, PastTheLimitStillRefused) {
  // 12,582,912 elements, more than 2^22, B with two long modes: refused before anything is tried, as
  // before the digits were (the limit is docs/algebra.md's), although the digits show this result.
  const Layout a = L("((_8,_4,(_4,_1,_8)),((_8),_4,(_8,_2)),(_4,(_3),_2)):((_0,_1,(_6144,_1,_384)),((_24576),_196608,"
                     "(_786432,_8)),(_16,(_64),_192))");
  const std::string m = [&] {
    try {
      (void)composition(a, L("(_4,_3145728):(_1,_4)"));
      return std::string();
    } catch (const LayoutError& e) {
      return std::string(e.what());
    }
  }();
  EXPECT_TRUE(says(m, "too large to check the result against the definition; layoutproof cannot verify it")) << m;
  const Layout b = L("(_4,_3145728):(_1,_4)");
  EXPECT_TRUE(composition_holds_by_digits(a, b, composition_cute(a, b)));
}

template <class F>
std::string refusal_of(F&& check) {
  try {
    check();
    return "";
  } catch (const LayoutError& e) {
    return e.what();
  }
}

TEST(CheckComplement, RefusesWrongResults) {
  const Layout l = L("_4:_2");
  const IntTuple cotarget(24);
  EXPECT_EQ(refusal_of([&] { check_complement(l, cotarget, L("(_2,_3):(_1,_8)"), true); }), "");  // CuTe's
  const std::string unordered = refusal_of([&] { check_complement(l, cotarget, L("(3,2):(8,1)"), true); });
  EXPECT_TRUE(says(unordered, "breaks (3) \"R(i-1) < R(i)\" (ordered): R(2) = 16, R(3) = 1")) << unordered;
  const std::string meets = refusal_of([&] { check_complement(l, cotarget, L("(2,12):(1,2)"), true); });
  EXPECT_TRUE(says(meets, "breaks (4) \"R(i) != L(j)\" (disjoint): R(2) = 2 is also an offset of L")) << meets;
}

TEST(CheckInverses, RefuseWrongResults) {
  const Layout l = L("(_4,_2):(_2,_1)");
  EXPECT_EQ(refusal_of([&] { check_right_inverse(l, L("(_2,_4):(_4,_1)")); }), "");  // CuTe's
  EXPECT_EQ(refusal_of([&] { check_left_inverse(l, L("(_2,_4):(_4,_1)")); }), "");
  const std::string right = refusal_of([&] { check_right_inverse(l, L("(2,4):(4,2)")); });
  EXPECT_TRUE(says(right, "breaks \"L(R(i)) == i\" at i = 2: L(R(i)) = 4")) << right;
  const std::string left = refusal_of([&] { check_left_inverse(l, L("(2,4):(4,2)")); });
  EXPECT_TRUE(says(left, "breaks \"L(R(L(i))) == L(i)\" at i = 1: L(i) = 2 but L(R(L(i))) = 4")) << left;
}

}  // namespace
}  // namespace layoutproof
