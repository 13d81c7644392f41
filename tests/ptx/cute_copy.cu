// A CuTe s2r copy compiled to PTX, for cli.ptx_cute: `layoutproof ptx` of it must give exactly the
// lane addresses `layoutproof trace` gives for the same copy (ldmatrix is an explicit instruction:
// nothing fuses). Generated PTX (commit both; CI has no CUTLASS):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -std=c++17 --expt-relaxed-constexpr \
//     -I/work/cutlass/include -o tests/ptx/cute_copy.ptx tests/ptx/cute_copy.cu &&
//   sed -i "s|$PWD/||; s|/work/cutlass/|cutlass/|" tests/ptx/cute_copy.ptx     (nvcc 13.0, CUTLASS 7107b05)
// The same copy for `trace`:
//   --smem 'tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(Int<128>{},Int<64>{}))'
//   --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})'
//   --copy 'make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma)' --side S --element half_t
#include <cute/tensor.hpp>

using namespace cute;

__global__ void __launch_bounds__(128) ldsm_s2r(float* out) {
  __shared__ __align__(128) half_t smem[128 * 64];
  auto sA = make_tensor(make_smem_ptr(smem),
                        tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}),
                                      make_shape(Int<128>{}, Int<64>{})));
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  auto s2r = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  auto thr = s2r.get_slice(threadIdx.x);
  auto tXsA = thr.partition_S(sA);
  auto tCrA = mma.get_slice(threadIdx.x).partition_fragment_A(sA);
  auto tXrA = thr.retile_D(tCrA);
  copy(s2r, tXsA, tXrA);
  float acc = 0;
  for (int i = 0; i < size(tCrA); ++i) acc += float(tCrA(i));
  out[threadIdx.x] = acc;
}
