// model/trace/access.hpp: the generated lane addresses equal those of the hardware sample
// (shared/hardware/h100_shared_memory_wavefronts.jsonl, built from the seed articles' patterns).
#include "model/trace/access.hpp"

#include <gtest/gtest.h>

#include "model/layout/notation.hpp"

namespace layoutproof {
namespace {

using Lanes = std::array<i64, kWarpSize>;

AccessSpec spec(const char* tile, int elem_bytes, int vec, PatternKind p, int count = 4) {
  return make_access(parse_any_layout(tile), elem_bytes, vec, p, count);
}

TEST(Access, RowPerLaneMatchesHardwareSample32x40Sw223Chunk0) {
  const Lanes want = {0,    176,  352,  464,  656,  768,  1008, 1120, 1312, 1424, 1600, 1776, 1968, 2080, 2256, 2368,
                      2560, 2736, 2912, 3024, 3216, 3328, 3568, 3680, 3872, 3984, 4160, 4336, 4528, 4640, 4816, 4928};
  const auto w = warp_accesses(spec("Sw<2,2,3> o 0 o (32,40):(40,1)", 4, 4, PatternKind::row_per_lane));
  ASSERT_EQ(w.size(), 10u);  // 1 row group x 10 chunks of 4 floats
  EXPECT_EQ(w[0].byte_address, want);
  EXPECT_EQ(w[0].coord[5].row, 5);
  EXPECT_EQ(w[1].coord[5].col, 4);
}

TEST(Access, RowPerLaneWrapsRowsWhenFewerThan32) {
  const Lanes want = {0, 144, 288, 432, 576, 720, 864, 1008, 0, 144, 288, 432, 576, 720, 864, 1008,
                      0, 144, 288, 432, 576, 720, 864, 1008, 0, 144, 288, 432, 576, 720, 864, 1008};
  const auto w = warp_accesses(spec("Sw<3,3,3> o (8,64):(64,1)", 2, 8, PatternKind::row_per_lane));
  ASSERT_EQ(w.size(), 8u);
  EXPECT_EQ(w[0].byte_address, want);
}

TEST(Access, LdmatrixMatchesHardwareSample8x64Sw333) {
  const Lanes want = {0,  144, 288, 432, 576, 720, 864, 1008, 16, 128, 304, 416, 592, 704, 880, 992,
                      32, 176, 256, 400, 608, 752, 832, 976,  48, 160, 272, 384, 624, 736, 848, 960};
  const auto w4 = warp_accesses(spec("Sw<3,3,3> o (8,64):(64,1)", 2, 8, PatternKind::ldmatrix, 4));
  ASSERT_EQ(w4.size(), 2u);
  EXPECT_EQ(w4[0].byte_address, want);
  const auto w1 = warp_accesses(spec("Sw<3,3,3> o (8,64):(64,1)", 2, 8, PatternKind::ldmatrix, 1));
  ASSERT_EQ(w1.size(), 8u);
  for (int lane = 0; lane < 8; ++lane) EXPECT_EQ(w1[0].byte_address[lane], want[lane]);
  for (int lane = 8; lane < kWarpSize; ++lane) EXPECT_EQ(w1[0].byte_address[lane], -1);
}

TEST(Access, LinearCoversEveryVectorOnce) {
  const auto w = warp_accesses(spec("(8,20):(20,1)", 4, 4, PatternKind::linear));
  ASSERT_EQ(w.size(), 2u);  // 40 vectors: 32 + 8
  EXPECT_EQ(w[1].byte_address[7], (7 * 20 + 16) * 4);
  EXPECT_EQ(w[1].byte_address[8], -1);
}

TEST(Access, ThreadLayoutMapsLanesThroughTheTile) {
  AccessSpec s = spec("(32,64):(64,1)", 4, 1, PatternKind::thread_layout);
  s.thread_layout = parse_layout("32:1");  // lane l -> index l -> (l, 0): one column per warp
  const auto w = warp_accesses(s);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].byte_address[3], 3 * 256);
}

TEST(Access, ByteSwizzleAppliesToAbsoluteAddresses) {
  AccessSpec s = spec("(8,64):(64,1)", 2, 8, PatternKind::row_per_lane);
  s.byte_swizzle = parse_swizzle("Sw<3,4,3>");
  s.base_address = 1024;
  const auto w = warp_accesses(s);
  EXPECT_EQ(w[0].byte_address[1], (1024 + 128) ^ (1 << 4));
}

TEST(Access, RefusesWhatThePatternCannotDo) {
  EXPECT_THROW(warp_accesses(spec("(8,30):(30,1)", 4, 4, PatternKind::row_per_lane)), LayoutError);
  EXPECT_THROW(warp_accesses(spec("(8,64):(64,1)", 4, 8, PatternKind::ldmatrix)), LayoutError);
  EXPECT_THROW(warp_accesses(spec("(4,64):(64,1)", 2, 8, PatternKind::ldmatrix)), LayoutError);
  EXPECT_THROW(warp_accesses(spec("64:1", 2, 8, PatternKind::linear)), LayoutError);
}

}  // namespace
}  // namespace layoutproof
