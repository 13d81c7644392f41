// model/recast.hpp: upcast as CuTe's, checked against the definition: the upcast layout maps the
// coarse element containing fine element x to L(x) / N.
#include "model/recast.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "model/notation.hpp"

namespace layoutproof {
namespace {

TEST(Upcast, FourBitAtomBecomesTheByteAtom) {
  // GMMA K SW128 atom for 4-bit elements (shared/facts/cutlass_atoms.tsv) -> its byte form.
  const AnyLayout a = parse_any_layout("Sw<3,5,3> o 0 o (8,256):(256,1)");
  EXPECT_EQ(to_string(upcast(a, 2)), "Sw<3,4,3> o 0 o (8,128):(128,1)");
}

TEST(Upcast, MatchesTheDefinitionOnAlignedPairs) {
  for (const char* text : {"Sw<3,5,3> o 0 o (8,256):(256,1)", "Sw<2,5,3> o 0 o (128,8):(1,128)", "(8,32):(32,1)",
                           "(4,(2,8)):(16,(64,1))"}) {
    const AnyLayout fine = parse_any_layout(text);
    const AnyLayout coarse = upcast(fine, 2);
    // Each coarse element c holds fine elements 2c' and 2c'+1 along the stride-1 mode.
    const std::vector<i64> f = offsets(fine), c = offsets(coarse);
    EXPECT_EQ(static_cast<i64>(c.size()) * 2, static_cast<i64>(f.size())) << text;
    std::vector<i64> fine_pairs;
    for (i64 o : f)
      if (o % 2 == 0) fine_pairs.push_back(o / 2);
    std::sort(fine_pairs.begin(), fine_pairs.end());
    std::vector<i64> coarse_sorted = c;
    std::sort(coarse_sorted.begin(), coarse_sorted.end());
    EXPECT_EQ(coarse_sorted, fine_pairs) << text;
  }
}

TEST(Upcast, RefusesWhatCuteRefuses) {
  EXPECT_THROW(upcast(parse_layout("(8,8):(3,24)"), 2), LayoutError);
  EXPECT_THROW(upcast(parse_any_layout("Sw<3,0,3> o (8,8):(8,1)"), 2), LayoutError);
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// upcast keeps CuTe's smem_ptr form (pointer_flagged.hpp): the byte swizzle stays, the element grows.
TEST(Recast, UpcastKeepsSmemPtrForm) {
  const AnyLayout bytes = parse_any_layout("Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
  const AnyLayout halves = upcast(bytes, 2);
  EXPECT_EQ(to_cute_string(halves), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_EQ(*halves.swizzle, (Swizzle{3, 3, 3}));
  // Half (i,j) is bytes (i,2j) and (i,2j+1): byte address 2 * halves(i,j).
  for (i64 i = 0; i < 8; ++i)
    for (i64 j = 0; j < 64; ++j)
      EXPECT_EQ(evaluate(halves, IntTuple::tuple({i, j})) * 2, evaluate(bytes, IntTuple::tuple({i, 2 * j}))) << i << "," << j;
}

}  // namespace
}  // namespace layoutproof

namespace layoutproof {
namespace {

// CuTe's upcast<N>(Swizzle<B,M,S>) (swizzle_layout.hpp), exactly: Sw<B,M-k,S>, or with M < k
// Sw<max(B+M-k,0),0,S> (k = log2 N). Accepted iff it is the same function on multiples of N (brute
// force: sw(e*N) == result(e)*N for every e), refused otherwise; never a different answer.
TEST(UpcastSwizzle, IsCutesResultWhereverThatIsTheSameFunction) {
  int accepted_negative_m = 0, refused = 0;
  for (int n : {2, 4, 8, 16})
    for (int b = 0; b <= 3; ++b)
      for (int m = 0; m <= 4; ++m)
        for (int s = -6; s <= 6; ++s) {
          if (std::abs(s) < b || (b > 0 && s == 0)) continue;
          const Swizzle sw{b, m, s};
          const int k = __builtin_ctz(n), new_m = m - k;
          const Swizzle cute = new_m >= 0 ? Swizzle{b, new_m, s} : Swizzle{std::max(b + new_m, 0), 0, s};
          bool same = true;
          for (i64 e = 0; e < 4096 && same; ++e) same = sw.apply(e * n) == cute.apply(e) * n;
          try {
            const Swizzle got = upcast_swizzle_checked(sw, n);
            EXPECT_EQ(got, cute) << to_string(sw) << " by " << n;
            EXPECT_TRUE(same) << to_string(sw) << " by " << n;
            accepted_negative_m += new_m < 0 && b > 0;
          } catch (const LayoutError&) {
            EXPECT_FALSE(same) << to_string(sw) << " by " << n << " refused although CuTe's result is the same function";
            ++refused;
          }
        }
  EXPECT_GT(accepted_negative_m, 10);  // the cases the old rule (M >= log2 N) refused
  EXPECT_GT(refused, 10);
}

// The refusal says what moved: which address bit flips which, and which byte goes where.
TEST(UpcastSwizzle, RefusalNamesTheBitsAndBytesThatMove) {
  try {
    (void)element_swizzle(Swizzle{3, 2, 3}, 64);
    FAIL() << "Sw<3,2,3> on 64-bit elements has no element-level form";
  } catch (const LayoutError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("byte-address bit 5 flips bit 2"), std::string::npos) << m;
    EXPECT_NE(m.find("element 4's first byte 32 goes to byte 36"), std::string::npos) << m;
    EXPECT_NE(m.find("CuTe's upcast<8> gives Sw<2,0,3>"), std::string::npos) << m;
    // ... and it is true: byte 32 (element 4) is swizzled to byte 36, inside the element.
    EXPECT_EQ((Swizzle{3, 2, 3}).apply(32), 36);
  }
  // An S < 0 swizzle's dropped bits never fire: CuTe's upcast<8> of Sw<2,1,-3> is the identity on elements.
  EXPECT_EQ(element_swizzle(Swizzle{2, 1, -3}, 64), (Swizzle{0, 0, -3}));
  EXPECT_EQ(element_swizzle(Swizzle{2, 2, -3}, 64), (Swizzle{1, 0, -3}));
}

// upcast of an element-swizzled layout uses the same rule (was: refused whenever M < log2 N).
TEST(UpcastSwizzle, LayoutUpcastAcceptsCutesNegativeMCase) {
  const AnyLayout fine = parse_any_layout("Sw<2,0,-2> o 0 o (8,8):(8,1)");
  const AnyLayout coarse = upcast(fine, 2);
  EXPECT_EQ(*coarse.swizzle, (Swizzle{1, 0, -2}));
  // Coarse element c holds fine elements 2c and 2c+1: fine(i, 2j) == 2 * coarse(i, j).
  for (i64 i = 0; i < 8; ++i)
    for (i64 j = 0; j < 4; ++j)
      EXPECT_EQ(evaluate(fine, IntTuple::tuple({i, 2 * j})), 2 * evaluate(coarse, IntTuple::tuple({i, j}))) << i << "," << j;
}

}  // namespace
}  // namespace layoutproof
