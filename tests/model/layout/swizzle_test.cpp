// Tests for model/layout/swizzle.hpp: Sw<B,M,S> against its definition, the seed tables, involution, the TMA modes.
#include "model/layout/swizzle.hpp"

#include <gtest/gtest.h>

#include <set>

namespace layoutproof {
namespace {

// Definition (CuTe swizzle.hpp), written out independently.
std::int64_t ref_swizzle(int B, int M, int S, std::int64_t x) {
  const std::int64_t bit = (std::int64_t{1} << B) - 1;
  const std::int64_t yyy = bit << (M + (S > 0 ? S : 0));
  const std::int64_t y = x & yyy;
  return x ^ (S >= 0 ? (y >> S) : (y << -S));
}

TEST(Swizzle, Masks) {
  const Swizzle s{3, 4, 3};
  EXPECT_EQ(s.bit_msk(), 7);
  EXPECT_EQ(s.yyy_msk(), 7 << 7);
  EXPECT_EQ(s.zzz_msk(), 7 << 4);
  EXPECT_EQ(s.span_bits(), 10);
  const Swizzle n{2, 1, -3};
  EXPECT_EQ(n.yyy_msk(), 3 << 1);
  EXPECT_EQ(n.zzz_msk(), 3 << 4);
}

TEST(Swizzle, HeaderExample) { EXPECT_EQ((Swizzle{3, 4, 3}(0x3a0)), 0x3d0); }

// seed cute-swizzle-leimao: Swizzle<5,0,6> maps 65 to 64.
TEST(Swizzle, LeimaoExample) { EXPECT_EQ((Swizzle{5, 0, 6}(65)), 64); }

TEST(Swizzle, DefinitionBruteForce) {
  for (int B = 0; B <= 3; ++B)
    for (int M = 0; M <= 4; ++M)
      for (int S = -5; S <= 5; ++S) {
        if ((S < 0 ? -S : S) < B) continue;
        const Swizzle sw{B, M, S};
        ASSERT_NO_THROW(sw.validate());
        std::set<std::int64_t> image;
        for (std::int64_t x = 0; x < 4096; ++x) {
          const std::int64_t y = sw(x);
          ASSERT_EQ(y, ref_swizzle(B, M, S, x)) << "Sw<" << B << "," << M << "," << S << ">(" << x << ")";
          ASSERT_EQ(sw(y), x) << "involution";
          ASSERT_EQ(y & ~((std::int64_t{1} << sw.span_bits()) - 1), x & ~((std::int64_t{1} << sw.span_bits()) - 1))
              << "only the low M+B+|S| bits change";
          image.insert(y);
        }
        EXPECT_EQ(image.size(), 4096u) << "a bijection on [0, 4096)";
      }
}

// The tables of seed swizzle-tables-zh.md: Sw<2,M,3> on the 8x8 row-major tile (8,8):(8,1), entry [r][c] = Sw(8r+c).
// They agree with the definition (checked here). Sw<2,3,3> reads bits 6..7, which are 0 below 64: identity.
TEST(Swizzle, SeedTablesOn8x8RowMajor) {
  const int tables[4][8][8] = {
      {{0, 1, 2, 3, 4, 5, 6, 7}, {9, 8, 11, 10, 13, 12, 15, 14}, {18, 19, 16, 17, 22, 23, 20, 21},
       {27, 26, 25, 24, 31, 30, 29, 28}, {32, 33, 34, 35, 36, 37, 38, 39}, {41, 40, 43, 42, 45, 44, 47, 46},
       {50, 51, 48, 49, 54, 55, 52, 53}, {59, 58, 57, 56, 63, 62, 61, 60}},
      {{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}, {18, 19, 16, 17, 22, 23, 20, 21},
       {26, 27, 24, 25, 30, 31, 28, 29}, {36, 37, 38, 39, 32, 33, 34, 35}, {44, 45, 46, 47, 40, 41, 42, 43},
       {54, 55, 52, 53, 50, 51, 48, 49}, {62, 63, 60, 61, 58, 59, 56, 57}},
      {{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19, 20, 21, 22, 23},
       {24, 25, 26, 27, 28, 29, 30, 31}, {36, 37, 38, 39, 32, 33, 34, 35}, {44, 45, 46, 47, 40, 41, 42, 43},
       {52, 53, 54, 55, 48, 49, 50, 51}, {60, 61, 62, 63, 56, 57, 58, 59}},
      {{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19, 20, 21, 22, 23},
       {24, 25, 26, 27, 28, 29, 30, 31}, {32, 33, 34, 35, 36, 37, 38, 39}, {40, 41, 42, 43, 44, 45, 46, 47},
       {48, 49, 50, 51, 52, 53, 54, 55}, {56, 57, 58, 59, 60, 61, 62, 63}}};
  for (int M = 0; M < 4; ++M) {
    const Swizzle sw{2, M, 3};
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        EXPECT_EQ(ref_swizzle(2, M, 3, 8 * r + c), tables[M][r][c]) << "seed table vs definition";
        EXPECT_EQ(sw(8 * r + c), tables[M][r][c]) << "Sw<2," << M << ",3> at (" << r << "," << c << ")";
      }
  }
}

// SWIZZLE_128B = a ^ (((a>>7)&7)<<4) = Sw<3,4,3>; 64B = Sw<2,4,3>; 32B = Sw<1,4,3>; NONE = Sw<0,4,3>.
TEST(Swizzle, TmaModes) {
  for (std::int64_t a = 0; a < (1 << 16); ++a) {
    ASSERT_EQ((Swizzle{3, 4, 3}(a)), a ^ (((a >> 7) & 7) << 4)) << a;
    ASSERT_EQ((Swizzle{2, 4, 3}(a)), a ^ (((a >> 7) & 3) << 4)) << a;
    ASSERT_EQ((Swizzle{1, 4, 3}(a)), a ^ (((a >> 7) & 1) << 4)) << a;
    ASSERT_EQ((Swizzle{0, 4, 3}(a)), a) << a;
  }
}

TEST(Swizzle, NegativeShift) {
  // Sw<2,1,-3>: reads bits 1..2, writes bits 4..5.
  const Swizzle sw{2, 1, -3};
  ASSERT_NO_THROW(sw.validate());
  EXPECT_EQ(sw(0b000110), 0b110110);
  EXPECT_EQ(sw(0b110110), 0b000110);
  for (std::int64_t x = 0; x < 256; ++x) EXPECT_EQ(sw(sw(x)), x);
}

TEST(Swizzle, ValidateRejects) {
  EXPECT_THROW((Swizzle{3, 4, 2}.validate()), LayoutError);   // |S| < B
  EXPECT_THROW((Swizzle{3, 4, -2}.validate()), LayoutError);  // |S| < B
  EXPECT_THROW((Swizzle{-1, 4, 3}.validate()), LayoutError);
  EXPECT_THROW((Swizzle{1, -1, 3}.validate()), LayoutError);
  EXPECT_THROW((Swizzle{10, 30, 30}.validate()), LayoutError);  // 70 bits
  EXPECT_NO_THROW((Swizzle{3, 4, 3}.validate()));
  EXPECT_NO_THROW((Swizzle{0, 0, 0}.validate()));
  // |S| < B breaks the involution: Sw<2,0,1>(4) = 6 but Sw<2,0,1>(6) = 5. (The header says "not a bijection";
  // that is not true in general: x ^ (x>>1) on 3 bits is the Gray code, a bijection. It is not an involution.)
  EXPECT_EQ(ref_swizzle(2, 0, 1, 4), 6);
  EXPECT_EQ(ref_swizzle(2, 0, 1, 6), 5);
}

}  // namespace
}  // namespace layoutproof
