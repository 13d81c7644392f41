// tests/proofs/claims/agreement_test.cpp: the Z3 engine against its exhaustive twin (conventions.md #6)
// on seeded random small layouts, for every claim. Verdict kinds must agree, and refutations must
// carry the same minimal witness. 4 shards x 600 cases = 2,400 cases in the test suite (about 80 s of
// CPU: the suite keeps under 10 minutes on two cores); LAYOUTPROOF_SOAK=1 runs 4 x 2,500 = 10,000.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "model/algebra/algebra.hpp"
#include "model/layout/notation.hpp"
#include "proofs/claims/prove.hpp"

namespace layoutproof::proofs {
namespace {

struct Gen {
  std::mt19937_64 rng;
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

  IntTuple shape_or_stride(int leaves_left, bool stride, std::vector<i64>& shapes, int depth) {
    if (depth == 0 || pick(0, 2) > 0) {
      if (stride) return IntTuple(pick(0, 3) == 0 ? pick(-3, 0) : pick(0, 9));
      shapes.push_back(pick(1, 4));
      return IntTuple(shapes.back());
    }
    std::vector<IntTuple> kids;
    const int r = pick(1, std::min(3, leaves_left));
    for (int i = 0; i < r; ++i) kids.push_back(shape_or_stride(leaves_left - r, stride, shapes, depth - 1));
    return IntTuple::tuple(kids);
  }
  Layout layout() {
    std::vector<i64> unused;
    const IntTuple shape = shape_or_stride(4, false, unused, 2);
    // A stride congruent to the shape; often compact (so bijective claims are sometimes true).
    if (pick(0, 2) == 0) return Layout(shape, compact_col_major(shape));
    return Layout(shape, transform_leaves(shape, [&](i64) { return pick(0, 3) == 0 ? pick(-3, 0) : pick(0, 9); }));
  }
  AnyLayout any() {
    Layout l = layout();
    if (pick(0, 2) != 0) return l;
    Swizzle sw{pick(0, 2), pick(0, 2), 0};
    sw.S = pick(sw.B, 3) * (pick(0, 1) ? 1 : -1);
    return AnyLayout(sw, pick(0, 3) == 0 ? pick(0, 8) : 0, l);
  }
  Claim claim(const AnyLayout& l) {
    switch (pick(0, 6)) {
      case 0: return parse_claim("injective");
      case 1: return parse_claim(pick(0, 1) ? "bijective" : "swizzle-permutes");
      case 2: return parse_claim("surjective:" + std::to_string(pick(1, 16)));
      case 3: {
        const std::size_t mode = static_cast<std::size_t>(pick(0, static_cast<int>(l.layout.rank()) - 1));
        return parse_claim("contiguous:" + std::to_string(1 << pick(0, 2)) + "@" + std::to_string(mode));
      }
      case 4: {
        // Half the time a layout with the same offsets but another shape (coalesced).
        Claim c = parse_claim("injective");
        c.kind = Claim::Kind::equivalent;
        c.other = pick(0, 1) ? l.with_inner(coalesce(l.layout)) : any();
        c.text = "equivalent:" + to_string(*c.other);
        return c;
      }
      case 5: {
        Claim c = parse_claim("injective");
        c.kind = Claim::Kind::inverse;
        c.other = pick(0, 1) && !l.is_swizzled() ? AnyLayout(left_inverse_or(l.layout)) : AnyLayout(layout());
        c.text = "inverse:" + to_string(*c.other);
        return c;
      }
      default: return parse_claim("involution");
    }
  }
  Layout left_inverse_or(const Layout& l) {
    try {
      return left_inverse(l);
    } catch (const LayoutError&) {
      return layout();
    }
  }
};

// A shard's cases: `smoke` in the test suite, `soak` under LAYOUTPROOF_SOAK=1.
int shard_cases(int smoke, int soak) {
  const char* e = std::getenv("LAYOUTPROOF_SOAK");
  return e && std::string(e) == "1" ? soak : smoke;
}

void agree(unsigned seed, int cases) {
  Gen g{std::mt19937_64(seed)};
  ProveOptions z3o, exo;
  z3o.engine = EngineChoice::z3;
  exo.engine = EngineChoice::exhaustive;
  z3o.largest_v = exo.largest_v = false;
  int refuted = 0, proved = 0;
  for (int i = 0; i < cases; ++i) {
    const AnyLayout l = g.any();
    const Claim c = g.claim(l);
    Subject s;
    s.layout = l;
    if (c.kind == Claim::Kind::involution && !l.is_swizzled()) s.layout.swizzle = Swizzle{1, 1, -2};
    const Verdict a = prove(s, c, z3o), b = prove(s, c, exo);
    const std::string what = s.text() + " --claim " + c.text + " (seed " + std::to_string(seed) + ", case " +
                             std::to_string(i) + "): z3 " + to_string(a.kind) + " " + a.detail + ", exhaustive " +
                             to_string(b.kind) + " " + b.detail;
    ASSERT_NE(a.kind, Verdict::Kind::error) << what;
    ASSERT_NE(a.kind, Verdict::Kind::unknown) << what;
    ASSERT_EQ(a.kind, b.kind) << what;
    if (a.is_refuted()) {
      ++refuted;
      ASSERT_EQ(a.witness.why, b.witness.why) << what;
      ASSERT_EQ(a.witness.points.size(), b.witness.points.size()) << what;
      for (std::size_t k = 0; k < a.witness.points.size(); ++k) {
        EXPECT_EQ(a.witness.points[k].index, b.witness.points[k].index) << what;
        EXPECT_EQ(a.witness.points[k].offset, b.witness.points[k].offset) << what;
      }
    } else {
      ++proved;
    }
  }
  std::printf("passed %d cases (seed %u): %d proved, %d refuted\n", cases, seed, proved, refuted);
  EXPECT_GT(proved, cases / 20);
  EXPECT_GT(refuted, cases / 20);
}

TEST(Z3AgreesWithExhaustive, Shard0) { agree(1, shard_cases(600, 2500)); }
TEST(Z3AgreesWithExhaustive, Quick) { agree(99, 200); }
TEST(Z3AgreesWithExhaustive, Shard1) { agree(2, shard_cases(600, 2500)); }
TEST(Z3AgreesWithExhaustive, Shard2) { agree(3, shard_cases(600, 2500)); }
TEST(Z3AgreesWithExhaustive, Shard3) { agree(4, shard_cases(600, 2500)); }

}  // namespace
}  // namespace layoutproof::proofs
