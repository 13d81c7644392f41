// Tests for model/algebra/complement_strides.hpp: the header's examples, the cases it must leave to
// enumeration, and its @post against brute force on random complements, right and deliberately wrong.
#include "model/algebra/complement_strides.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "model/algebra/algebra.hpp"
#include "model/layout/notation.hpp"
#include "tests/model/random_layout.hpp"
#include "tests/model/reference.hpp"

namespace layoutproof {
namespace {

using namespace layoutproof::testing;

bool strides(const std::string& l, const std::string& r) { return complement_holds_by_strides(L(l), L(r)); }

// (3) ordered and (4) disjoint, by the tests' own evaluation.
bool holds_brute_force(const Layout& l, const Layout& r) {
  const std::vector<i64> ro = ref_offsets(r), lo = ref_offsets(l);
  const std::set<i64> image(lo.begin(), lo.end());
  for (std::size_t i = 1; i < ro.size(); ++i)
    if (!(ro[i - 1] < ro[i]) || image.count(ro[i])) return false;
  return true;
}

TEST(ComplementStrides, HeaderExamples) {
  EXPECT_TRUE(strides("_4:_2", "(_2,_3):(_1,_8)"));
  EXPECT_FALSE(strides("_4:_2", "(2,3):(1,2)"));
  EXPECT_FALSE(holds_brute_force(L("_4:_2"), L("(2,3):(1,2)")));  // R(2) = 2 = L(1)
}

TEST(ComplementStrides, OrderedExactly) {
  EXPECT_TRUE(strides("1:0", "(2,3,4):(1,2,6)"));
  EXPECT_FALSE(strides("1:0", "(3,2):(8,1)"));          // R(3) = 1 after R(2) = 16
  EXPECT_FALSE(strides("1:0", "(2,3):(1,1)"));          // R(2) = 1 = R(1)
  EXPECT_TRUE(strides("1:0", "(2,1,3):(1,-5,2)"));      // a size-1 leaf moves nothing, whatever its stride
  EXPECT_FALSE(strides("1:0", "(2,3):(1,-2)"));
}

TEST(ComplementStrides, DisjointFromL) {
  EXPECT_TRUE(strides("(2,4):(0,3)", "(3,2):(1,12)"));    // L's stride-0 leaf adds no offset
  EXPECT_TRUE(strides("(2,2):(1,6)", "(3,2):(2,12)"));    // CuTe's complement for cotarget 16
  EXPECT_FALSE(strides("(2,2):(1,6)", "(3,2):(2,11)"));   // 1 + 2 * 2 + 6 = 11 reached: not shown
  EXPECT_FALSE(strides("4:-1", "2:4"));                    // a negative stride of L
}

TEST(ComplementStrides, LeavesToEnumeration) {
  EXPECT_FALSE(strides("4:1", "(2,8):(1152921504606846976,2305843009213693952)"));  // R's offsets pass 64 bits
  const Layout zero = raw_layout(tup({T(2), T(0)}), tup({T(1), T(2)}));
  EXPECT_FALSE(complement_holds_by_strides(L("4:1"), zero));  // a mode of size 0
}

// @post: true implies (3) and (4), for CuTe's results and for wrong ones; and the proof is not
// vacuous: it shows most of CuTe's results (the rest are enumerated).
TEST(ComplementStrides, ProvedImpliesDefinitionOnRandomComplements) {
  std::mt19937 rng(20261202);
  int complemented = 0, proved = 0, wrong = 0;
  for (int n = 0; n < 1000; ++n) {
    const Layout l = random_layout(rng);
    const i64 cotarget = ref_size(l) * (1 + n % 3);
    Layout r;
    try {
      r = complement_cute(l, T(cotarget));
    } catch (const LayoutError&) {
      continue;
    }
    if (ref_size(r) > 1024 || ref_size(l) > 1024) continue;
    ++complemented;
    if (complement_holds_by_strides(l, r)) {
      ++proved;
      ASSERT_TRUE(holds_brute_force(l, r)) << to_string(l) << " -> " << to_string(r);
    }
    // A leaf of R moved down onto its neighbours' offsets, or onto one of L's.
    const std::size_t leaf = static_cast<std::size_t>(n) % leaves(r.shape).size();
    const i64 by = n % 2 ? -1 : leaves(l.stride)[static_cast<std::size_t>(n / 2) % leaves(l.stride).size()] - leaves(r.stride)[leaf];
    const Layout bad = with_stride_changed(r, leaf, by);
    if (holds_brute_force(l, bad)) continue;
    ++wrong;
    EXPECT_FALSE(complement_holds_by_strides(l, bad)) << to_string(l) << " -> " << to_string(bad);
  }
  EXPECT_GT(complemented, 800);
  EXPECT_GT(proved, complemented * 9 / 10) << proved << " of " << complemented;  // 851 of 851 when written
  EXPECT_GT(wrong, complemented / 2) << wrong << " of " << complemented;  // 610
}

}  // namespace
}  // namespace layoutproof
