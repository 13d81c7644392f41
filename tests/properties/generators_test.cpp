// The generators reach the whole space properties/generators.hpp claims (a coverage test, with a
// fixed sample so it is deterministic), and what they generate is valid by construction.
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "model/algebra/tiling.hpp"
#include "properties/check.hpp"
#include "properties/generators.hpp"
#include "tests/properties/helpers.hpp"

namespace layoutproof {
namespace {
using namespace props;

template <class T>
std::vector<T> sample(const rc::Gen<T>& g, int n, std::uint64_t seed = 12345) {
  rc::Random r(seed);
  std::vector<T> out;
  for (int i = 0; i < n; ++i) out.push_back(g(r.split(), i % 100).value());
  return out;
}

TEST(Generators, LayoutsReachTheClaimedSpace) {
  std::set<int> depths;
  bool stride0 = false, negative = false, padded = false, permuted = false, one_tuple = false;
  i64 max_size = 0;
  for (const Layout& l : sample(gen::layouts(), 2000)) {
    depths.insert(depth(l));
    const auto d = leaves(l.stride);
    const auto s = leaves(l.shape);
    for (i64 x : d) stride0 |= x == 0, negative |= x < 0;
    max_size = std::max(max_size, size(l));
    if (l.shape.is_tuple() && l.rank() == 1 && l.shape[0].is_leaf()) one_tuple = true;
    const bool pos = std::all_of(d.begin(), d.end(), [](i64 x) { return x > 0; });
    if (pos && s.size() >= 2 && !std::is_sorted(d.begin(), d.end())) permuted = true;
    if (pos && injective(l) && cosize(l) > size(l)) padded = true;
  }
  EXPECT_EQ(depths, (std::set<int>{0, 1, 2, 3}));
  EXPECT_TRUE(stride0 && negative && padded && permuted && one_tuple);
  EXPECT_LE(max_size, gen::kMaxSize);
}

TEST(Generators, AdmissibleLayoutsAreComplementable) {
  for (const Layout& l : sample(gen::admissible(), 1000)) {
    EXPECT_TRUE(injective(l)) << to_string(l);
    EXPECT_NO_THROW(complement(l)) << to_string(l);
  }
}

TEST(Generators, SwizzlesReachBothSignsAndAllB) {
  std::set<int> bs;
  bool neg = false, pos = false, s_gt_b = false;
  for (const Swizzle& s : sample(gen::swizzles(), 1000)) {
    EXPECT_GE(s.abs_s(), s.B) << to_string(s);
    EXPECT_NO_THROW(s.validate());
    bs.insert(s.B);
    neg |= s.S < 0;
    pos |= s.S > 0;
    s_gt_b |= s.abs_s() > s.B;
  }
  EXPECT_EQ(bs, (std::set<int>{0, 1, 2, 3}));
  EXPECT_TRUE(neg && pos && s_gt_b);
}

TEST(Generators, TilersAreValidAndVaried) {
  bool tuple = false, integer = false, layout = false, underscore = false;
  int refused = 0;
  const auto ls = sample(gen::layouts(), 1000);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const Tiler t = sample(gen::divide_tiler(ls[i]), 1, 777 + i)[0];
    tuple |= t.is_tuple();
    integer |= t.kind == Tiler::Kind::integer;
    layout |= t.kind == Tiler::Kind::layout;
    if (t.is_tuple())
      for (const auto& m : t.modes) underscore |= m.kind == Tiler::Kind::underscore;
    try {
      (void)logical_divide(ls[i], t);
    } catch (const LayoutError& e) {
      ++refused;
      ADD_FAILURE() << "logical_divide(" << to_string(ls[i]) << ", " << tiler_to_string(t) << "): " << e.what();
    }
  }
  EXPECT_TRUE(tuple && integer && layout && underscore);
  EXPECT_EQ(refused, 0);
}

TEST(Generators, ComposableRhsIsAdmissible) {
  const auto as = sample(gen::layouts(), 1000);
  for (std::size_t i = 0; i < as.size(); ++i) {
    const Layout b = sample(gen::composable_rhs(as[i]), 1, 99 + i)[0];
    EXPECT_NO_THROW((void)composition(as[i], b)) << to_string(as[i]) << " o " << to_string(b);
  }
}

// The distribution as RapidCheck sees it (printed with the result).
LP_PROP(Generators, Distribution, 500, (const Layout& l, const Swizzle& s)) {
  RC_TAG("depth " + std::to_string(depth(l)));
  RC_CLASSIFY(std::ranges::any_of(leaves(l.stride), [](i64 d) { return d == 0; }), "stride 0");
  RC_CLASSIFY(std::ranges::any_of(leaves(l.stride), [](i64 d) { return d < 0; }), "negative stride");
  RC_CLASSIFY(s.S < 0, "S < 0");
  RC_SUCCEED_IF(true);
}

}  // namespace
}  // namespace layoutproof
