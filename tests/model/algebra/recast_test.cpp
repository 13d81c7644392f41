// model/algebra/recast.hpp: upcast as CuTe's, checked against the definition: the upcast layout maps the
// coarse element containing fine element x to L(x) / N.
#include "model/algebra/recast.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "model/layout/notation.hpp"

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

// CuTe's upcast<N>(Swizzle<B,M,S>) (swizzle_layout.hpp): where accepted, exactly CuTe's
// Sw<B,M-k,S>, and every unit stays with its coarse element (brute force over all addresses x:
// sw(x) == result(x / N) * N + x % N); refused exactly where some unit moves (M < k with B > 0),
// although CuTe's Sw<max(B+M-k,0),0,S> may map element starts alike (S < 0).
TEST(UpcastSwizzle, AcceptedIffEveryUnitStaysWithItsElement) {
  int refused_same_starts = 0;
  for (int n : {2, 4, 8, 16})
    for (int b = 0; b <= 3; ++b)
      for (int m = 0; m <= 4; ++m)
        for (int s = -6; s <= 6; ++s) {
          if (std::abs(s) < b || (b > 0 && s == 0)) continue;
          const Swizzle sw{b, m, s};
          const int k = __builtin_ctz(n), new_m = m - k;
          const Swizzle cute = new_m >= 0 ? Swizzle{b, new_m, s} : Swizzle{std::max(b + new_m, 0), 0, s};
          bool units_stay = true, starts_same = true;
          for (i64 x = 0; x < 4096 * n; ++x) {
            units_stay = units_stay && sw.apply(x) == cute.apply(x / n) * n + x % n;
            if (x % n == 0) starts_same = starts_same && sw.apply(x) == cute.apply(x / n) * n;
          }
          try {
            EXPECT_EQ(upcast_swizzle_checked(sw, n), cute) << to_string(sw) << " by " << n;
            EXPECT_TRUE(units_stay) << to_string(sw) << " by " << n;
          } catch (const LayoutError&) {
            EXPECT_FALSE(units_stay) << to_string(sw) << " by " << n << " refused although no unit moves";
            refused_same_starts += starts_same;
          }
        }
  EXPECT_GT(refused_same_starts, 10);  // S < 0: element starts agree, inner bytes move: still refused
}

// The refusal says what moved: which address bit flips which, and which byte goes where.
TEST(UpcastSwizzle, RefusalNamesTheBitsAndBytesThatMove) {
  const auto message = [](Swizzle sw, int bits) {
    try {
      (void)element_swizzle(sw, bits);
    } catch (const LayoutError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::string m = message(Swizzle{3, 2, 3}, 64);
  EXPECT_NE(m.find("byte-address bit 5 flips bit 2"), std::string::npos) << m;
  EXPECT_NE(m.find("byte 32 (element 4's byte 0) goes to byte 36 (element 4's byte 4)"), std::string::npos) << m;
  EXPECT_NE(m.find("CuTe's upcast<8> gives Sw<2,0,3>"), std::string::npos) << m;
  EXPECT_EQ((Swizzle{3, 2, 3}).apply(32), 36);  // ... and it is true
  m = message(Swizzle{1, 1, -2}, 32);
  EXPECT_NE(m.find("byte 2 (element 0's byte 2) goes to byte 10 (element 2's byte 2)"), std::string::npos) << m;
  EXPECT_EQ((Swizzle{1, 1, -2}).apply(2), 10);
  m = message(Swizzle{1, 0, 1}, 32);  // both bits inside the element: its bytes are permuted
  EXPECT_NE(m.find("byte 2 (element 0's byte 2) goes to byte 3 (element 0's byte 3)"), std::string::npos) << m;
  EXPECT_EQ(element_swizzle(Swizzle{0, 1, 3}, 64), (Swizzle{0, 0, 3}));  // no bits: CuTe's identity
}

// upcast of an element-swizzled layout uses the same rule and message.
TEST(UpcastSwizzle, LayoutUpcastUsesTheSameRule) {
  try {
    (void)upcast(parse_any_layout("Sw<2,0,-2> o 0 o (8,8):(8,1)"), 2);
    FAIL() << "Sw<2,0,-2> moves offset 1 to offset 5, into another coarse element";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("offset 1 (element 0's offset 1) goes to offset 5 (element 2's offset 1)"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(to_string(upcast(parse_any_layout("Sw<3,5,3> o 0 o (8,256):(256,1)"), 4)), "Sw<3,3,3> o 0 o (8,64):(64,1)");
}

}  // namespace
}  // namespace layoutproof
