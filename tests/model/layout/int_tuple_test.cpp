// Tests for model/layout/int_tuple.hpp: each function against its definition (CuTe int_tuple.hpp / stride.hpp).
#include "model/layout/int_tuple.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace layoutproof {
namespace {

using T = IntTuple;

T tup(std::initializer_list<IntTuple> c) { return IntTuple::tuple(c); }

TEST(IntTuple, LeafAndTupleBasics) {
  const T leaf(7);
  EXPECT_TRUE(leaf.is_leaf());
  EXPECT_EQ(leaf.value(), 7);
  EXPECT_EQ(leaf.rank(), 1u);
  // get<0> of a leaf is the leaf itself (CuTe).
  EXPECT_EQ(leaf[0], leaf);
  const T t = tup({tup({2, 3}), 4});
  EXPECT_TRUE(t.is_tuple());
  EXPECT_EQ(t.rank(), 2u);
  EXPECT_EQ(t[0], tup({2, 3}));
  EXPECT_EQ(t[1], T(4));
}

TEST(IntTuple, OneTupleIsNotALeaf) {
  EXPECT_NE(tup({4}), T(4));
  EXPECT_EQ(tup({4}).rank(), 1u);
  EXPECT_TRUE(tup({4}).is_tuple());
  EXPECT_NE(tup({tup({4})}), tup({4}));
}

// Staticness (CuTe's _8 vs 8): IntTuple(v) is static, IntTuple::dynamic(v) is not; == ignores it,
// identical() does not; a tuple is static when all its leaves are.
TEST(IntTuple, StaticAndDynamicLeaves) {
  EXPECT_TRUE(T(8).is_static());
  EXPECT_FALSE(T::dynamic(8).is_static());
  EXPECT_EQ(T(8), T::dynamic(8));
  EXPECT_TRUE(identical(T(8), T(8)));
  EXPECT_FALSE(identical(T(8), T::dynamic(8)));
  EXPECT_TRUE(T::integer(3, true).is_static());
  EXPECT_FALSE(T::integer(3, false).is_static());
  EXPECT_TRUE(tup({2, tup({3, 4})}).is_static());
  EXPECT_FALSE(tup({2, tup({T::dynamic(3), 4})}).is_static());
  EXPECT_TRUE(IntTuple::tuple(std::vector<IntTuple>{}).is_static());  // CuTe: tuple<> is static
  EXPECT_EQ(tup({2, T::dynamic(3)}), tup({2, 3}));
  EXPECT_FALSE(identical(tup({2, T::dynamic(3)}), tup({2, 3})));
  EXPECT_FALSE(identical(tup({2, 3}), tup({2, 3, 4})));
  // is_constant<n>: static and equal.
  EXPECT_TRUE(T(1).is_constant(1));
  EXPECT_FALSE(T::dynamic(1).is_constant(1));
  EXPECT_FALSE(T(2).is_constant(1));
  EXPECT_FALSE(tup({1}).is_constant(1));
}

// flatten and leaf_nodes keep each leaf's staticness.
TEST(IntTuple, FlattenKeepsStaticness) {
  const T t = tup({T::dynamic(2), tup({3, T::dynamic(4)})});
  EXPECT_TRUE(identical(flatten(t), tup({T::dynamic(2), 3, T::dynamic(4)})));
  const std::vector<T> l = leaf_nodes(t);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_FALSE(l[0].is_static());
  EXPECT_TRUE(l[1].is_static());
}

// Basis strides (ScaledBasis): value @ mode path; not integers, never equal to one.
TEST(IntTuple, BasisLeaves) {
  const T e1 = T::basis(1, true, {1});
  EXPECT_TRUE(e1.is_leaf());
  EXPECT_TRUE(e1.is_basis());
  EXPECT_EQ(e1.scale(), 1);
  EXPECT_EQ(e1.basis_path(), std::vector<int>({1}));
  EXPECT_THROW((void)e1.value(), LayoutError);
  EXPECT_NE(e1, T(1));
  EXPECT_NE(e1, T::basis(1, true, {0}));
  EXPECT_EQ(e1, T::basis(1, false, {1}));
  EXPECT_FALSE(identical(e1, T::basis(1, false, {1})));
  EXPECT_FALSE(e1.is_constant(1));
  EXPECT_THROW(T::basis(1, true, {}), LayoutError);
  EXPECT_THROW(T::basis(1, true, {-1}), LayoutError);
}

TEST(IntTuple, MapLeaves) {
  const T t = tup({2, tup({T::dynamic(3)})});
  const T m = map_leaves(t, [](const T& l) { return T::integer(l.value() * 2, !l.is_static()); });
  EXPECT_TRUE(identical(m, tup({T::dynamic(4), tup({6})})));
}

TEST(IntTuple, Product) {
  EXPECT_EQ(product(T(4)), 4);
  EXPECT_EQ(product(tup({2, 3})), 6);
  EXPECT_EQ(product(tup({tup({2, 3}), 4})), 24);
  EXPECT_EQ(product(tup({tup({tup({2, 1}), 3}), tup({5})})), 30);
}

TEST(IntTuple, ProductOverflowThrows) {
  const i64 big = i64{1} << 40;
  EXPECT_THROW(product(tup({big, big})), OverflowError);
  // 2^62 * 2 = 2^63 does not fit in i64.
  EXPECT_THROW(product(tup({i64{1} << 62, 2})), OverflowError);
  EXPECT_EQ(product(tup({i64{1} << 31, i64{1} << 31})), i64{1} << 62);
}

TEST(IntTuple, Depth) {
  EXPECT_EQ(depth(T(4)), 0);
  EXPECT_EQ(depth(tup({4})), 1);
  EXPECT_EQ(depth(tup({2, 3})), 1);
  EXPECT_EQ(depth(tup({tup({2, 3}), 4})), 2);
  EXPECT_EQ(depth(tup({tup({tup({2, 2}), 2}), 3})), 3);
}

TEST(IntTuple, LeavesAndFlatten) {
  EXPECT_EQ(leaves(T(5)), std::vector<i64>({5}));
  EXPECT_EQ(leaves(tup({tup({2, 3}), 4})), std::vector<i64>({2, 3, 4}));
  EXPECT_EQ(leaves(tup({tup({tup({2, 1}), 3}), tup({5, 6})})), std::vector<i64>({2, 1, 3, 5, 6}));
  EXPECT_EQ(flatten(T(5)), T(5));
  EXPECT_EQ(flatten(tup({tup({2, 3}), 4})), tup({2, 3, 4}));
  EXPECT_EQ(flatten(tup({4})), tup({4}));
  EXPECT_EQ(flatten(tup({tup({tup({2, 1}), 3}), tup({5, 6})})), tup({2, 1, 3, 5, 6}));
}

TEST(IntTuple, Congruent) {
  EXPECT_TRUE(congruent(T(1), T(9)));
  EXPECT_TRUE(congruent(tup({tup({2, 3}), 4}), tup({tup({1, 2}), 6})));
  EXPECT_FALSE(congruent(tup({tup({2, 3}), 4}), tup({2, 3, 4})));
  EXPECT_FALSE(congruent(tup({4}), T(4)));
  EXPECT_FALSE(congruent(tup({2, 3}), tup({2, 3, 4})));
}

TEST(IntTuple, TransformLeaves) {
  const T t = tup({tup({2, 3}), 4});
  EXPECT_EQ(transform_leaves(t, [](i64 v) { return v * 10; }), tup({tup({20, 30}), 40}));
}

// shape_div(a, b) = a / b if that is non-zero, else signum(a)*signum(b); tuple/int folds b.
TEST(IntTuple, ShapeDivIntegers) {
  EXPECT_EQ(shape_div(i64{6}, i64{2}), 3);
  EXPECT_EQ(shape_div(i64{2}, i64{6}), 1);  // 2/6 == 0 -> signum(2)*signum(6)
  EXPECT_EQ(shape_div(i64{8}, i64{8}), 1);
  EXPECT_EQ(shape_div(i64{-2}, i64{6}), -1);
  EXPECT_THROW(shape_div(i64{6}, i64{4}), LayoutError);
  try {
    shape_div(i64{6}, i64{4}, "mycontext");
    FAIL() << "expected LayoutError";
  } catch (const LayoutError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("mycontext", 0), 0u) << e.what();
  }
}

TEST(IntTuple, ShapeDivTupleByInt) {
  // (4,6)/8: 4 -> shape_div(4,8)=1, b -> shape_div(8,4)=2; 6 -> 6/2=3.
  EXPECT_EQ(shape_div(tup({4, 6}), T(8)), tup({1, 3}));
  EXPECT_EQ(shape_div(tup({4, 6}), T(2)), tup({2, 6}));
  EXPECT_EQ(shape_div(tup({2, 3, 4}), T(6)), tup({1, 1, 4}));
}

TEST(IntTuple, CeilDiv) {
  EXPECT_EQ(ceil_div(T(7), 2), T(4));
  EXPECT_EQ(ceil_div(T(8), 2), T(4));
  // (4,6)/3: 4 -> ceil(4/3)=2, b -> ceil(3/4)=1; 6 -> 6.
  EXPECT_EQ(ceil_div(tup({4, 6}), 3), tup({2, 6}));
}

TEST(IntTuple, ShapeMin) {
  EXPECT_EQ(shape_min(1, 8), 1);
  EXPECT_EQ(shape_min(8, 1), 1);
  EXPECT_EQ(shape_min(4, 8), 4);
  EXPECT_EQ(shape_min(8, 4), 4);
}

TEST(IntTuple, ElemScale) {
  EXPECT_EQ(elem_scale(T(3), T(4)), T(12));
  EXPECT_EQ(elem_scale(T(3), tup({2, 4})), T(24));
  EXPECT_EQ(elem_scale(tup({2, 3}), tup({4, 5})), tup({8, 15}));
}

// compact_col_major: strides are the exclusive prefix products; a static 1 gets stride 0 (CuTe stride.hpp).
TEST(IntTuple, CompactColMajor) {
  EXPECT_EQ(compact_col_major(tup({2, 1, 3})), tup({1, 0, 2}));
  EXPECT_EQ(compact_col_major(tup({4, 8})), tup({1, 4}));
  EXPECT_EQ(compact_col_major(tup({tup({2, 3}), 4})), tup({tup({1, 2}), 6}));
  EXPECT_EQ(compact_col_major(T(8)), T(1));
  EXPECT_EQ(compact_col_major(tup({2, 4}), 3), tup({3, 6}));
}

}  // namespace
}  // namespace layoutproof
