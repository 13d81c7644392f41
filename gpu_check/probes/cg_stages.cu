// How many shared wavefronts Nsight Compute counts for cp.async.cg (LDGSTS.E.BYPASS.128) with
// several copies in flight: a 16 x 16 block whose lanes with threadIdx.x < 4 copy one float4 each
// per stage (cuda-samples' MatrixMulAsyncCopyMultiStageLargeChunk's pattern), STAGES stages issued
// before one wait, for STAGES = 1, 2, 4, 8; and the same with cp.async.ca.
//   nvcc -arch=sm_90a -o cg_stages gpu_check/probes/cg_stages.cu
//   ncu --section SourceCounters --page source --csv --print-source sass ./cg_stages > cg_stages.csv
// The addresses give 1 wavefront per copy (4 lanes x 16 B per row, rows in separate warps' halves).
#include <cstdio>

template <int STAGES, bool CG>
__global__ void stages(const float* a, float* out) {
  __shared__ __align__(16) float buf[STAGES][16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
  for (int s = 0; s < STAGES; ++s) {
    if (tx < 4) {
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&buf[s][ty][4 * tx]));
      const float* src = a + s * 256 + ty * 16 + 4 * tx;
      if (CG) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src));
      else asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src));
    }
    asm volatile("cp.async.commit_group;");
  }
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  float sum = 0;
#pragma unroll
  for (int s = 0; s < STAGES; ++s) sum += buf[s][ty][tx];
  out[ty * 16 + tx] = sum;
}

int main() {
  float *a, *out;
  cudaMalloc(&a, 8 * 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(a, 0, 8 * 256 * sizeof(float));
  const dim3 b(16, 16);
  stages<1, true><<<1, b>>>(a, out);
  stages<2, true><<<1, b>>>(a, out);
  stages<4, true><<<1, b>>>(a, out);
  stages<8, true><<<1, b>>>(a, out);
  stages<1, false><<<1, b>>>(a, out);
  stages<4, false><<<1, b>>>(a, out);
  stages<8, false><<<1, b>>>(a, out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
