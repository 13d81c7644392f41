// The CuTe part of the compiled-kernel corpus, measured on the device (docs/compiled.md): the
// ldmatrix s2r copy of tests/ptx/cute_copy.cu and an epilogue (accumulators staged through shared
// memory: r2s with the TiledMMA's C partition, then a 128-bit s2r read row by row), one CTA each.
// Needs CUTLASS's headers (-I CUTLASS/include; never vendored): gpu_check/compiled/build_corpus.sh.
#include <cstdio>

#include "../ptx/cute_copy.cu"

// The epilogue: a 2x2-warp SM80 16x8x16 TiledMMA's 32x32 float accumulators written to a row-major
// 32x(32+4) padded smem tile (UniversalCopy<float>: one STS.32 per value), then read back by 128
// threads as 4 floats each (one LDS.128 per thread) and stored to global memory.
__global__ void __launch_bounds__(128) epilogue_padded(float* out) {
  __shared__ __align__(16) float smem[32 * 36];
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  auto sC = make_tensor(make_smem_ptr(smem), Layout<Shape<_32, _32>, Stride<Int<36>, _1>>{});
  auto thr_mma = mma.get_slice(threadIdx.x);
  auto tCrC = thr_mma.partition_fragment_C(sC);
  for (int i = 0; i < size(tCrC); ++i) tCrC(i) = float(threadIdx.x * 100 + i);
  auto r2s = make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, mma);
  auto thr_r2s = r2s.get_slice(threadIdx.x);
  copy(r2s, thr_r2s.retile_S(tCrC), thr_r2s.partition_D(sC));
  __syncthreads();
  auto s2r = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{},
                             Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{});
  auto thr_s2r = s2r.get_slice(threadIdx.x);
  auto tS = thr_s2r.partition_S(sC);
  auto tR = make_fragment_like(tS);
  copy(s2r, tS, tR);
  float acc = 0;
  for (int i = 0; i < size(tR); ++i) acc += tR(i);
  out[threadIdx.x] = acc;
}

int main() {
  float* out;
  if (cudaMalloc(&out, 1 << 20) != cudaSuccess) return 1;
  ldsm_s2r<<<1, 128>>>(out);
  epilogue_padded<<<1, 128>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("cute: 2 launches: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
