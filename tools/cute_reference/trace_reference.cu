// CuTe's own per-lane shared-memory addresses for kernel copies: the reference that layoutproof's
// `trace` is checked against (tests/kernels/golden/*.trace). Host code only; needs CUTLASS's
// headers, which are never vendored: build with
//   nvcc -std=c++17 -I$CUTLASS_DIR/include tools/cute_reference/trace_reference.cu -o /tmp/trace_reference
//   /tmp/trace_reference tests/kernels/golden
// For each configuration it prints, per warp and per instruction (CPY rest value, rest modes and
// stage in colexicographic order, rest value fastest), the 32 lane byte addresses of the first
// element of each thread's CPY slice, computed by CuTe: TiledCopy::tidfrg_S/D(smem layout)
// evaluated at (thread, (0, rest_val), rest) (partition_S / partition_D of ThrCopy).
#include <cstdio>
#include <string>

#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>

using namespace cute;

template <char Side, class Smem, class Copy>
void emit(const char* dir, const char* name, const char* smem_text, const char* copy_text, const char* mma_text,
          const char* elem, int elem_bytes, Smem smem, Copy copy) {
  std::string path = std::string(dir) + "/" + name + ".trace";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fprintf(f, "# name: %s\n# smem: %s\n# copy: %s\n# mma: %s\n# side: %c\n# element: %s\n", name, smem_text,
               copy_text, mma_text, Side, elem);
  auto tv = [&] {  // (thr, (xv, rv), rest)
    if constexpr (Side == 'S') return Copy::tidfrg_S(smem);
    else return Copy::tidfrg_D(smem);
  }();
  int threads = size<0>(tv);
  int rest_vals = size<1, 1>(tv);
  int rest = size<2>(tv);
  int warps = (threads + 31) / 32;
  std::fprintf(f, "# threads: %d rest_vals: %d rest: %d xvals: %d\n", threads, rest_vals, rest, int(size<1, 0>(tv)));
  for (int r = 0; r < rest; ++r)
    for (int rv = 0; rv < rest_vals; ++rv)
      for (int w = 0; w < warps; ++w) {
        std::fprintf(f, "%d %d", w, rv + rest_vals * r);
        for (int l = 0; l < 32; ++l) {
          int t = 32 * w + l;
          long a = t < threads ? long(tv(t, make_coord(0, rv), r)) * elem_bytes : -1;
          std::fprintf(f, " %ld", a);
        }
        std::fprintf(f, "\n");
      }
  std::fclose(f);
}

#define STR(...) #__VA_ARGS__
#define CONFIG(NAME, SMEM, COPY, MMA_TEXT, SIDE, ELEM)                                                     \
  emit<SIDE>(dir, NAME, STR(SMEM), STR(COPY), MMA_TEXT, #ELEM, sizeof(ELEM), SMEM, COPY)

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  // SM80 f16 (default_gemm_configuration.hpp): TiledMMA 2x2x1 of 16x8x16, Tile<_32,_32,_16>.
  auto mma_f16 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
#define MMA_F16 "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"
  auto mma = mma_f16;
  CONFIG("sm80_f16_tn_s2r_A_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_s2r_B_ldsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_nt_s2r_A_ldsm_t",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_tn_g2s_A_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{}),
         "", 'D', half_t);
  CONFIG("sm80_f16_nt_g2s_A_cpasync",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_8, _1>>{}),
         "", 'D', half_t);
  CONFIG("sm80_f16_k32_s2r_A_ldsm",
         tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_A_ldsm_x2",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{}, Int<2>{})),
         make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_B_ldsm_x1",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_B(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, mma), MMA_F16, 'S', half_t);
  CONFIG("sm80_f16_s2r_A_universal_u128",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<128>{}, Int<64>{}, Int<3>{})),
         make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma), MMA_F16, 'S', half_t);
  // r2s epilogue with STSM on the C tile
  CONFIG("sm90_f16_r2s_C_stsm",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma), MMA_F16, 'D', half_t);
  CONFIG("sm90_f16_r2s_C_stsm_t",
         tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}), make_shape(Int<64>{}, Int<64>{})),
         make_tiled_copy_C(Copy_Atom<SM90_U16x8_STSM_T, half_t>{}, mma), MMA_F16, 'D', half_t);
  // TF32 MN-major (the UniversalCopy s2r that conflicts) and K-major LDSM.
  {
    auto mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _1>>{}, Tile<_32, _32, _8>{});
#define MMA_TF32 "make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>{}, Tile<_32,_32,_8>{})"
    CONFIG("sm80_tf32_nt_s2r_A_universal",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_tn_s2r_A_ldsm",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>{}, mma), MMA_TF32, 'S', tfloat32_t);
    CONFIG("sm80_tf32_nt_g2s_A_cpasync",
           tile_to_shape(composition(Swizzle<3, 2, 3>{}, Layout<Shape<_32, _8>, Stride<_1, _32>>{}), make_shape(Int<128>{}, Int<32>{}, Int<3>{})),
           make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, tfloat32_t>{}, Layout<Shape<_16, _8>, Stride<_1, _16>>{}, Layout<Shape<_4, _1>>{}),
           "", 'D', tfloat32_t);
  }
  // f64: 8x8x4 atom, 2x2x1 (DefaultCopy reads are element-wise: UniversalCopy<double> here).
  {
    auto mma = make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<Layout<Shape<_16, _2>, Stride<_2, _1>>, Layout<Shape<_16, _2>, Stride<_2, _1>>, Underscore>{});
#define MMA_F64 "make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<Layout<Shape<_16,_2>,Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>{})"
    CONFIG("sm80_f64_tn_s2r_A_universal",
           tile_to_shape(composition(Swizzle<2, 0, 4>{}, Layout<Shape<_4, _16>, Stride<_1, _4>>{}), make_shape(Int<64>{}, Int<16>{}, Int<3>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<double>, double>{}, mma), MMA_F64, 'S', double);
  }
  // Tutorial sgemm_sm80.cu: padded (128,8):(1,129) f32 tile, 32x8 threads.
  CONFIG("tutorial_sgemm_g2s_A_padded",
         make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{})),
         make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>{}, Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _1>>{}),
         "", 'D', float);
  {
    auto mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
#define MMA_FMA "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})"
    CONFIG("tutorial_sgemm_s2r_A_fma",
           make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<129>{}, Int<1032>{})),
           make_tiled_copy_A(Copy_Atom<UniversalCopy<float>, float>{}, mma), MMA_FMA, 'S', float);
  }
  std::printf("wrote traces to %s\n", dir);
  return 0;
}
