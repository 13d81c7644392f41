#include "model/source/kernel_configs.hpp"

#include <optional>

#include "model/source/kernel_expr.hpp"

namespace layoutproof {
namespace {

const char* const kDefaults = "test/unit/gemm/device/default_gemm_configuration.hpp";
const char* const kTutorial = "examples/cute/tutorial/sgemm_sm80.cu";

std::string staged(const std::string& atom, const std::string& shape) {
  return "tile_to_shape(" + atom + ", make_shape(" + shape + "))";
}

const char* const kMmaF16 = "TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>{}";
const char* const kMmaTf32 = "TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>, Tile<_32,_32,_8>>{}";
const char* const kMmaS8 = "TiledMMA<MMA_Atom<SM80_16x8x32_S32S8S8S32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_32>>{}";
const char* const kMmaF64 =
    "TiledMMA<MMA_Atom<SM80_8x8x4_F64F64F64F64_TN>, Layout<Shape<_2,_2,_1>>, "
    "Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>{}";
const char* const kMmaSimt = "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}";

std::vector<KernelConfig> build() {
  const std::string k128 = "Int<128>{}, Int<32>{}, Int<3>{}";
  return {
      {"SM80 f16 TN 128x128x32", kDefaults, "half_t", kMmaF16,
       staged("composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{})", k128), "A",
       {{"s2r A LDSM_N x4", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})", 'D'}}},
      {"SM80 f16 NT 128x128x32", kDefaults, "half_t", kMmaF16,
       staged("composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_8>, Stride<_1,_64>>{})", k128), "A",
       {{"s2r A LDSM_T x8", "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_8,_1>>{})", 'D'}}},
      {"SM80 f16 TN 128x128x32 (B)", kDefaults, "half_t", kMmaF16,
       staged("composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{})", k128), "B",
       {{"s2r B LDSM_N x4", "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", 'S'},
        {"g2s B cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})", 'D'}}},
      {"SM80 f16 NT 128x128x32 (B)", kDefaults, "half_t", kMmaF16,
       staged("composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_8>, Stride<_1,_64>>{})", k128), "B",
       {{"s2r B LDSM_T x8", "make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma)", 'S'},
        {"g2s B cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_8,_1>>{})", 'D'}}},
      {"SM80 tf32 NT 128x128x32 (B)", kDefaults, "tfloat32_t", kMmaTf32,
       staged("composition(Swizzle<3,2,3>{}, Layout<Shape<_32,_8>, Stride<_1,_32>>{})", k128), "B",
       {{"s2r B UniversalCopy", "make_tiled_copy_B(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)", 'S'},
        {"g2s B cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})", 'D'}}},
      {"SM80 f16 TN 128x128x64", "examples/cute/tutorial/sgemm_sm80.cu (hgemm) and the K=64 default operand", "half_t", kMmaF16,
       staged("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})", "Int<128>{}, Int<64>{}, Int<3>{}"), "A",
       {{"s2r A LDSM_N x4", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})", 'D'}}},
      {"SM80 tf32 TN 128x128x32", kDefaults, "tfloat32_t", kMmaTf32,
       staged("composition(Swizzle<3,2,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{})", k128), "A",
       {{"s2r A LDSM_N x4", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_4>>{})", 'D'}}},
      {"SM80 tf32 NT 128x128x32", kDefaults, "tfloat32_t", kMmaTf32,
       staged("composition(Swizzle<3,2,3>{}, Layout<Shape<_32,_8>, Stride<_1,_32>>{})", k128), "A",
       {{"s2r A UniversalCopy", "make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16,_8>, Stride<_1,_16>>{}, Layout<Shape<_4,_1>>{})", 'D'}}},
      {"SM80 s8 TN 128x128x64", kDefaults, "int8_t", kMmaS8,
       staged("composition(Swizzle<2,4,3>{}, Layout<Shape<_16,_64>, Stride<_64,_1>>{})", "Int<128>{}, Int<64>{}, Int<3>{}"), "A",
       {{"s2r A LDSM_N x4", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>{}, mma)", 'S'},
        {"g2s A cp.async 16 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, int8_t>{}, Layout<Shape<_32,_4>, Stride<_4,_1>>{}, Layout<Shape<_1,_16>>{})", 'D'}}},
      {"SM80 f64 TN 128x64x16", kDefaults, "double", kMmaF64,
       staged("composition(Swizzle<2,0,4>{}, Layout<Shape<_4,_16>, Stride<_1,_4>>{})", "Int<128>{}, Int<16>{}, Int<3>{}"), "A",
       {{"s2r A DefaultCopy", "make_tiled_copy_A(Copy_Atom<DefaultCopy, double>{}, mma)", 'S'},
        {"g2s A cp.async 8 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<double>, double>{}, Layout<Shape<_8,_16>, Stride<_16,_1>>{}, Layout<Shape<_1,_1>>{})", 'D'}}},
      {"SM80 SIMT f32 NT 128x128x8", kDefaults, "float", kMmaSimt,
       staged("Layout<Shape<_128,_8>, Stride<_1,_128>>{}", "Int<128>{}, Int<8>{}, Int<3>{}"), "A",
       {{"s2r A DefaultCopy", "make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma)", 'S'},
        {"g2s A UniversalCopy", "make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_8>, Stride<_1,_32>>{}, Layout<Shape<_1,_1>>{})", 'D'}}},
      {"SM80 SIMT f32 TN 128x128x8", kDefaults, "float", kMmaSimt,
       // The padded atom (128,8):(1,132) staged by hand: stage stride 1056 = 8 * 132, a multiple of 32
       // words, so every stage sees the same banks.
       "make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<128 + 4>{}, Int<1056>{}))", "A",
       {{"s2r A DefaultCopy", "make_tiled_copy_A(Copy_Atom<DefaultCopy, float>{}, mma)", 'S'},
        {"g2s A UniversalCopy", "make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})", 'D'}}},
      {"tutorial sgemm_sm80 f32 TN 128x128x8", kTutorial, "float", "TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, Layout<Shape<_16,_16,_1>>>{}",
       "make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{}))", "A",
       {{"s2r A UniversalCopy", "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma)", 'S'},
        {"g2s A cp.async 4 B", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{})", 'D'}}},
  };
}

}  // namespace

const std::vector<KernelConfig>& kernel_configs() {
  static const std::vector<KernelConfig> configs = build();
  return configs;
}

TracedConfig trace_config(const KernelConfig& k) {
  const std::optional<TiledMma> mma = k.mma.empty() ? std::nullopt : std::optional<TiledMma>(parse_tiled_mma(k.mma));
  TracedConfig t{parse_smem_layout(k.smem), {}};
  for (const KernelCopy& c : k.copies)
    t.traces.push_back(trace_copy(parse_tiled_copy(c.copy, mma), t.smem, c.side == 'S' ? CopySide::S : CopySide::D));
  return t;
}

}  // namespace layoutproof
