// tests/model/trace/fuse_trace_test.cpp: the fused trace (model/trace/trace.hpp fuse_trace): nvcc's merging of
// a thread's contiguous, aligned accesses into one vector, uniformly over the warps.
#include <gtest/gtest.h>

#include <map>

#include "model/source/kernel_expr.hpp"
#include "model/bank/bank.hpp"
#include "model/trace/trace.hpp"

namespace layoutproof {
namespace {

const char* const kMmaF64 =
    "TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, "
    "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}";

AddressTrace trace(const char* copy, const char* mma, const char* smem, CopySide side = CopySide::S) {
  std::optional<TiledMma> m;
  if (mma) m = parse_tiled_mma(mma);
  return trace_copy(parse_tiled_copy(copy, m), parse_smem_layout(smem), side);
}

// Every fused lane's slice is the concatenation of f CuTe-level slices, contiguous from an address
// aligned to the fused width.
void expect_contiguous(const AddressTrace& f) {
  for (const auto& in : f.instructions)
    for (int l = 0; l < kWarpLanes; ++l) {
      const i64 a = in.addr[static_cast<std::size_t>(l)];
      if (a < 0) continue;
      EXPECT_EQ(a % f.width_bytes, 0);
      for (int j = 0; j < in.slice_len; ++j)
        EXPECT_EQ(in.slice_addrs[static_cast<std::size_t>(l * in.slice_len + j)], a + j * f.element_bytes);
    }
}

// The f64 MMA's M permutation gives each thread rows 2i and 2i+1: on an MN-major tile they are
// 16 contiguous, aligned bytes, so two LDS.64 become one LDS.128.
TEST(FuseTrace, F64PairsBecomeLds128) {
  const AddressTrace t = trace("make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", kMmaF64, "(128,16,3):(1,128,2048)");
  ASSERT_EQ(t.width_bytes, 8);
  EXPECT_EQ(fused_factor(t), 2);
  const AddressTrace f = fuse_trace(t);
  EXPECT_EQ(f.width_bytes, 16);
  EXPECT_EQ(f.instructions.size() * 2, t.instructions.size());
  EXPECT_EQ(f.instructions.front().slice_len, 2 * t.instructions.front().slice_len);
  EXPECT_EQ(f.instructions.front().addr, t.instructions.front().addr);  // the first access of each group
  expect_contiguous(f);
  // Every element the CuTe-level trace reads, the fused one reads as often.
  std::map<i64, int> a, b;
  for (const auto& in : t.instructions)
    for (i64 x : in.slice_elems) a[x]++;
  for (const auto& in : f.instructions)
    for (i64 x : in.slice_elems) b[x]++;
  EXPECT_EQ(a, b);
}

// f32 pairs of a (32,4) x (2,1) UniversalCopy: two LDS.32 per thread-tile become one LDS.64.
TEST(FuseTrace, F32PairsBecomeLds64) {
  const AddressTrace t = trace("make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_2,_1>>{})",
                               nullptr, "(128,8,3):(1,128,1024)");
  EXPECT_EQ(fused_factor(t), 2);
  const AddressTrace f = fuse_trace(t);
  EXPECT_EQ(f.width_bytes, 8);
  expect_contiguous(f);
}

// Nothing fuses: the swizzle Sw<2,0,4> breaks the pairs (CUTLASS's f64 TN atom), the SIMT thread's
// rows are 16 apart, and cp.async is an explicit instruction.
TEST(FuseTrace, NothingFusesWhereTheSasHasTheCuteLevel) {
  const AddressTrace swz = trace("make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", kMmaF64,
                                 "tile_to_shape(composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>, Stride<_1,_4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{}))");
  EXPECT_EQ(fused_factor(swz), 1);
  EXPECT_EQ(fuse_trace(swz).instructions.size(), swz.instructions.size());
  const AddressTrace simt = trace("make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma)",
                                  "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}",
                                  "(128,8,3):(1,128,1024)");
  EXPECT_EQ(fused_factor(simt), 1);
  const AddressTrace g2s = trace("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_2,_1>>{})",
                                 nullptr, "(128,8,3):(1,128,1024)", CopySide::D);
  EXPECT_EQ(fused_factor(g2s), 1);
}

// CUTLASS's f64 TN atom: no grouping holds for every position, but the aligned register pairs that
// are contiguous in every warp fuse. The H100 SASS of this copy (docs/gpu_check.md, the run of
// 2026-11-23 at d620b25, nvcc 12.x -arch=sm_90) has 48 LDS.64 + 24 LDS.128 per thread and Nsight
// Compute counts 288 shared loads and 1152 wavefronts for the CTA: exactly these two parts.
TEST(FuseTrace, CutlassF64TnFusesHalfItsPairs) {
  const AddressTrace t = trace("make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", kMmaF64,
                               "tile_to_shape(composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>, Stride<_1,_4>>{}), make_shape(Int<128>{}, Int<16>{}, Int<3>{}))");
  const std::vector<AddressTrace> parts = fuse_trace_parts(t);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].width_bytes, 16);
  EXPECT_EQ(parts[0].instructions.size(), 96u);  // 24 per thread x 4 warps
  EXPECT_EQ(parts[1].width_bytes, 8);
  EXPECT_EQ(parts[1].instructions.size(), 192u);  // 48 per thread x 4 warps
  expect_contiguous(parts[0]);
  i64 wavefronts = 0;
  std::map<i64, int> elements;  // every element of the CuTe-level trace, once, in some part
  for (const auto& p : parts)
    for (const auto& in : p.instructions) {
      wavefronts += analyze_smem_access(in.access()).wavefronts;
      for (int l = 0; l < kWarpLanes; ++l)
        for (int j = 0; j < in.slice_len; ++j) ++elements[in.slice_elems[static_cast<std::size_t>(l * in.slice_len + j)] * 64 + l];
    }
  EXPECT_EQ(wavefronts, 1152);
  std::map<i64, int> cute;
  for (const auto& in : t.instructions)
    for (int l = 0; l < kWarpLanes; ++l)
      for (int j = 0; j < in.slice_len; ++j) ++cute[in.slice_elems[static_cast<std::size_t>(l * in.slice_len + j)] * 64 + l];
  EXPECT_EQ(elements, cute);
  // A uniform fusion is one part, the fuse_trace one.
  const AddressTrace mn = trace("make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", kMmaF64, "(128,16,3):(1,128,2048)");
  const auto mn_parts = fuse_trace_parts(mn);
  ASSERT_EQ(mn_parts.size(), 1u);
  EXPECT_EQ(mn_parts[0].width_bytes, fuse_trace(mn).width_bytes);
}

}  // namespace
}  // namespace layoutproof
