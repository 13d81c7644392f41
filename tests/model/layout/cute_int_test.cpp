// Tests for model/layout/cute_int.hpp: CuTe's integer arithmetic with staticness (integral_constant.hpp).
#include "model/layout/cute_int.hpp"

#include <gtest/gtest.h>

namespace layoutproof {
namespace {

namespace ci = cute_int;
using T = IntTuple;

T s(i64 v) { return T(v); }
T d(i64 v) { return T::dynamic(v); }

// Static op static is static; a run-time operand makes the result dynamic, except CuTe's
// absorbing overloads: _0 * x, x * _0, _0 / x, _0 % x, x % _1, x % _-1 are the static _0.
TEST(CuteInt, StaticnessRules) {
  EXPECT_TRUE(identical(ci::mul(s(4), s(8)), s(32)));
  EXPECT_TRUE(identical(ci::mul(s(4), d(8)), d(32)));
  EXPECT_TRUE(identical(ci::mul(s(0), d(8)), s(0)));
  EXPECT_TRUE(identical(ci::mul(d(8), s(0)), s(0)));
  EXPECT_TRUE(identical(ci::mul(d(0), s(3)), d(0)));  // only a static _0 absorbs
  EXPECT_TRUE(identical(ci::div(s(0), d(8)), s(0)));
  EXPECT_TRUE(identical(ci::mod(d(7), s(1)), s(0)));
  EXPECT_TRUE(identical(ci::mod(d(7), s(-1)), s(0)));
  EXPECT_TRUE(identical(ci::mod(s(0), d(7)), s(0)));
  EXPECT_TRUE(identical(ci::mod(d(7), s(4)), d(3)));
  EXPECT_TRUE(identical(ci::add(s(1), d(2)), d(3)));
  EXPECT_TRUE(identical(ci::min(s(4), d(8)), d(4)));
  EXPECT_TRUE(identical(ci::ceil_div(s(6), s(4)), s(2)));
  EXPECT_TRUE(identical(ci::ceil_div(d(6), s(4)), d(2)));
  EXPECT_TRUE(identical(ci::abs(s(-3)), s(3)));
  EXPECT_TRUE(identical(ci::signum(d(-3)), d(-1)));
  EXPECT_TRUE(identical(ci::gcd(s(12), s(18)), s(6)));
  EXPECT_THROW(ci::div(s(1), s(0)), LayoutError);
  EXPECT_THROW(ci::mul(s(i64{1} << 40), s(i64{1} << 40)), OverflowError);
}

// C++ truncating division, as CuTe's int arithmetic.
TEST(CuteInt, TruncatingDivision) {
  EXPECT_EQ(ci::div(s(-7), s(2)).value(), -3);
  EXPECT_EQ(ci::mod(s(-7), s(2)).value(), -1);
  EXPECT_EQ(ci::ceil_div(s(7), s(2)).value(), 4);
}

// Basis strides scale and keep their path; static_equal needs both static.
TEST(CuteInt, BasisAndStaticEqual) {
  const T e1 = T::basis(1, true, {1});
  EXPECT_TRUE(identical(ci::mul(s(4), e1), T::basis(4, true, {1})));
  EXPECT_TRUE(identical(ci::mul(d(4), e1), T::basis(4, false, {1})));
  EXPECT_TRUE(ci::static_equal(s(4), s(4)));
  EXPECT_FALSE(ci::static_equal(s(4), d(4)));
  EXPECT_FALSE(ci::static_equal(e1, s(1)));
  EXPECT_TRUE(ci::static_less(s(1), s(2)));
  EXPECT_FALSE(ci::static_less(s(1), d(2)));
  EXPECT_THROW(ci::add(e1, s(1)), LayoutError);
}

// Tuple functions: CuTe's product, ceil_div/shape_div folds, compact strides, coalesce of shapes.
TEST(CuteInt, TupleFunctions) {
  EXPECT_TRUE(identical(ci::product(T::tuple({s(2), d(3)})), d(6)));
  EXPECT_TRUE(identical(ci::product(T::tuple({s(2), s(3)})), s(6)));
  EXPECT_TRUE(identical(ci::product(T::tuple(std::vector<T>{})), s(1)));
  EXPECT_EQ(ci::ceil_div_tuple(T::tuple({4, 6}), T(3)), T::tuple({2, 6}));
  EXPECT_EQ(ci::shape_div(T::tuple({4, 5, 6}), T(40)), T::tuple({1, 1, 3}));
  EXPECT_THROW(ci::shape_div(s(6), s(4)), LayoutError);  // static "Divisibility Condition"
  EXPECT_NO_THROW(ci::shape_div(d(6), s(4)));           // unchecked at run time
  EXPECT_TRUE(identical(ci::compact_col_major(T::tuple({s(2), d(4), s(1), s(3)})),
                        T::tuple({s(1), s(2), s(0), d(8)})));
  EXPECT_TRUE(identical(ci::compact_row_major(T::tuple({s(2), s(4)})), T::tuple({s(4), s(1)})));
  EXPECT_TRUE(identical(ci::coalesce_shape(T::tuple({s(2), s(4), d(6), s(8)})), T::tuple({s(8), d(6), s(8)})));
  EXPECT_TRUE(identical(ci::coalesce_shape(T::tuple({s(32), s(4), s(4)})), s(512)));
  EXPECT_EQ(ci::leaf_text(T::basis(1, true, {1, 0})), "_1@0@1");
  EXPECT_EQ(ci::leaf_text(d(-2)), "-2");
}

}  // namespace
}  // namespace layoutproof
