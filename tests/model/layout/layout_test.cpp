// Tests for model/layout/layout.hpp: size/depth/cosize, crd2idx/idx2crd and evaluation, checked against an
// independent brute-force reference (colexicographic split over the flattened leaves).
#include "model/layout/layout.hpp"

#include <gtest/gtest.h>

#include "tests/model/reference.hpp"

#include <algorithm>
#include <string>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

using namespace layoutproof::testing;



// Reference hierarchical coordinate of an in-domain index i (congruent to shape).
T ref_idx2crd(i64 i, const T& shape) {
  if (shape.is_leaf()) return T(i);
  std::vector<T> out;
  for (const auto& c : shape.children()) {
    const i64 n = product(c);
    out.push_back(ref_idx2crd(i % n, c));
    i /= n;
  }
  return T::tuple(out);
}

const std::vector<std::string>& samples() {
  static const std::vector<std::string> s = {
      "8:1", "1:0", "1:5", "4:0", "(4):(1)", "(2,3):(1,2)", "(2,3):(3,1)", "(4,2):(2,1)", "(2,1,3):(1,0,2)",
      "(2,4):(0,1)", "(4,(2,2)):(2,(1,8))", "((2,3),4):((1,2),6)", "((2,2),(2,3)):((4,1),(2,8))",
      "(((2,2),2),3):(((1,4),2),16)", "(2,(1,6)):(1,(6,2))", "(3,(2,(2,2))):(1,(3,(6,12)))", "(4,2,3):(2,1,8)",
      "(8,(2,1)):(2,(1,7))", "(2,2):(-1,4)", "((3),(1,2)):((5),(9,1))"};
  return s;
}

TEST(Layout, ConstructorRequiresCongruence) {
  EXPECT_THROW(Layout(tup({2, 3}), T(1)), LayoutError);
  EXPECT_THROW(Layout(tup({tup({2, 3}), 4}), tup({1, 2, 6})), LayoutError);
  EXPECT_NO_THROW(Layout(tup({tup({2, 3}), 4}), tup({tup({1, 2}), 6})));
  const Layout d;
  EXPECT_EQ(d.shape, T(1));
  EXPECT_EQ(d.stride, T(0));
}

TEST(Layout, ConcatOfOneGivesOneTuple) {
  const Layout l = Layout::concat({Layout(8, 1)});
  EXPECT_EQ(l.shape, tup({8}));
  EXPECT_EQ(l.stride, tup({1}));
  const Layout m = Layout::concat({Layout(4, 2), Layout(tup({2, 2}), tup({1, 8}))});
  EXPECT_EQ(m, Layout(tup({4, tup({2, 2})}), tup({2, tup({1, 8})})));
}

TEST(Layout, ModeAndRank) {
  const Layout l = parse_layout("(4,(2,2)):(2,(1,8))");
  EXPECT_EQ(l.rank(), 2u);
  EXPECT_EQ(l.mode(1), Layout(tup({2, 2}), tup({1, 8})));
  const Layout i = parse_layout("8:4");
  EXPECT_EQ(i.rank(), 1u);
  EXPECT_EQ(i.mode(0), i);
}

TEST(Layout, HeaderExample) {
  const Layout l = parse_layout("(4,(2,2)):(2,(1,8))");
  EXPECT_EQ(size(l), 16);
  EXPECT_EQ(depth(l), 2);
  EXPECT_EQ(cosize(l), 16);
  EXPECT_EQ(evaluate(l, 5), 3);
  EXPECT_EQ(evaluate(l, tup({1, tup({1, 0})})), 3);
  EXPECT_EQ(crd2idx(tup({1, 2}), tup({4, tup({2, 2})})), 9);
}

// size = product of the shape; cosize = |L|(size-1)+1 = 1 + sum (s-1)|d|; both brute forced.
TEST(Layout, SizeDepthCosizeBruteForce) {
  for (const auto& text : samples()) {
    SCOPED_TRACE(text);
    const Layout l = parse_layout(text);
    const std::vector<i64> s = leaves(l.shape), d = leaves(l.stride);
    i64 n = 1, co = 1;
    for (std::size_t k = 0; k < s.size(); ++k) {
      n *= s[k];
      co += (s[k] - 1) * (d[k] < 0 ? -d[k] : d[k]);
    }
    EXPECT_EQ(size(l), n);
    EXPECT_EQ(cosize(l), co);
    EXPECT_EQ(depth(l), depth(l.shape));
    bool nonneg = std::all_of(d.begin(), d.end(), [](i64 x) { return x >= 0; });
    if (nonneg) {
      i64 mx = 0;
      for (i64 i = 0; i < n; ++i) mx = std::max(mx, ref_eval(l, i));
      EXPECT_EQ(cosize(l), mx + 1);
    }
  }
}

TEST(Layout, EvaluateAndOffsetsBruteForce) {
  for (const auto& text : samples()) {
    SCOPED_TRACE(text);
    const Layout l = parse_layout(text);
    const std::vector<i64> o = offsets(l);
    ASSERT_EQ(static_cast<i64>(o.size()), size(l));
    for (i64 i = 0; i < size(l); ++i) {
      EXPECT_EQ(o[i], ref_eval(l, i)) << "i=" << i;
      EXPECT_EQ(evaluate(l, i), ref_eval(l, i)) << "i=" << i;
      const T c = ref_idx2crd(i, l.shape);
      EXPECT_EQ(evaluate(l, c), ref_eval(l, i)) << "i=" << i;
      EXPECT_EQ(crd2idx(c, l.shape, l.stride), ref_eval(l, i)) << "i=" << i;
      EXPECT_EQ(crd2idx(c, l.shape), i) << "i=" << i;
      EXPECT_EQ(crd2idx(T(i), l.shape, l.stride), ref_eval(l, i)) << "i=" << i;
      EXPECT_EQ(idx2crd(T(i), l.shape), c) << "i=" << i;
    }
  }
}

// A partial coordinate (one integer per top-level mode) is split inside each mode (CuTe).
TEST(Layout, PartialCoordinatesBruteForce) {
  for (const auto& text : samples()) {
    const Layout l = parse_layout(text);
    if (l.shape.is_leaf() || l.rank() != 2) continue;
    SCOPED_TRACE(text);
    const i64 n0 = product(l.shape[0]), n1 = product(l.shape[1]);
    for (i64 a = 0; a < n0; ++a)
      for (i64 b = 0; b < n1; ++b) EXPECT_EQ(evaluate(l, tup({a, b})), ref_eval(l, a + n0 * b)) << a << "," << b;
  }
}

// Out of the domain, the last mode takes the remaining quotient (CuTe's natural extension).
TEST(Layout, LastModeIsUnbounded) {
  const Layout l = parse_layout("(4,4):(1,4)");
  EXPECT_EQ(evaluate(l, 20), 20);
  const Layout m = parse_layout("(2,(2,3)):(1,(10,100))");
  for (i64 i = 0; i < 40; ++i) EXPECT_EQ(evaluate(m, i), ref_eval(m, i)) << i;
}

TEST(Layout, Idx2CrdExamples) {
  // CuTe 4.x: the last mode of the shape is unbounded: 20 = 0 + 4*5.
  EXPECT_EQ(idx2crd(T(20), tup({4, 4})), tup({0, 5}));
  // With explicit strides each leaf is (i / d) % s: (20/1)%4 = 0, (20/4)%4 = 1.
  EXPECT_EQ(idx2crd(T(20), tup({4, 4}), tup({1, 4})), tup({0, 1}));
  EXPECT_EQ(idx2crd(T(5), tup({4, 4}), tup({1, 4})), tup({1, 1}));
  // A size-1 mode always gets coordinate 0.
  EXPECT_EQ(idx2crd(T(7), tup({1, 8}), tup({1, 1})), tup({0, 7}));
  // Hierarchical shapes.
  EXPECT_EQ(idx2crd(T(9), tup({4, tup({2, 2})})), tup({1, tup({0, 1})}));
  EXPECT_EQ(idx2crd(T(3), T(8)), T(3));
}

TEST(Layout, Idx2CrdWithStridesBruteForce) {
  // idx2crd(i, s, d): every leaf is (i / d) % s.
  const T shape = tup({2, tup({3, 2})}), stride = tup({1, tup({2, 6})});
  for (i64 i = 0; i < 24; ++i) {
    const T expect = tup({(i / 1) % 2, tup({(i / 2) % 3, (i / 6) % 2})});
    EXPECT_EQ(idx2crd(T(i), shape, stride), expect) << i;
  }
}

TEST(Layout, Crd2IdxIntoTupleShape) {
  // int coordinate into a tuple shape: split colexicographically, last mode unreduced.
  const T shape = tup({4, 4}), stride = tup({1, 100});
  EXPECT_EQ(crd2idx(T(5), shape, stride), 1 + 100);
  EXPECT_EQ(crd2idx(T(20), shape, stride), 0 + 5 * 100);
}

TEST(Layout, Crd2IdxRankMismatchThrows) {
  EXPECT_THROW(crd2idx(tup({1, 2, 3}), tup({4, 4}), tup({1, 4})), LayoutError);
}

TEST(Layout, OverflowIsReported) {
  const i64 big = i64{1} << 40;
  EXPECT_THROW(size(Layout(tup({big, big}), tup({1, big}))), OverflowError);
  // cosize = 1 + 2*2^62 does not fit.
  EXPECT_THROW(cosize(Layout(tup({3}), tup({i64{1} << 62}))), OverflowError);
  EXPECT_THROW(evaluate(Layout(tup({4}), tup({i64{1} << 62})), 3), OverflowError);
}

}  // namespace
}  // namespace layoutproof
