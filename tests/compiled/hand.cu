// The hand-written part of the compiled-kernel corpus, measured on the device (docs/compiled.md):
// tests/ptx/basic.cu's kernels (a row copy, padding, a column read, a broadcast, a 2-way stride,
// ldmatrix, cp.async, a wrap-around k-loop, an XOR swizzle) and two cp.async kernels whose shared
// side is the same and whose global side differs, launched once each, one CTA, by main() below.
// Built and measured by gpu_check/compiled/build_corpus.sh and gpu_check/compiled/measure.sh.
#include <cstdio>

#include "../ptx/basic.cu"

// cp.async of 8 bytes per lane into consecutive shared words (the shared side: 2 wavefronts per
// warp), read from global memory with a lane stride of 8 bytes (contiguous) or 32 bytes (scattered).
template <int GlobalStrideDoubles>
__global__ void cp_async8(const double* in, double* out) {
  __shared__ double s[128];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &in[t * GlobalStrideDoubles], 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s[(t + 1) % 128];
}

// A 128-thread epilogue-style transpose through a padded 32x33 tile: each warp writes 8 rows and
// reads 8 columns back (conflict-free both ways), then stores to global memory.
__global__ void __launch_bounds__(128) transpose_padded(const float* in, float* out) {
  __shared__ float s[32][33];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int r = warp; r < 32; r += 4) s[r][lane] = in[r * 32 + lane];
  __syncthreads();
  for (int r = warp; r < 32; r += 4) out[r * 32 + lane] = s[lane][r];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
  float *fin, *fout;
  double *din, *dout;
  int4 *iin, *iout;
  unsigned* uout;
  CHECK(cudaMalloc(&fin, 1 << 20)); CHECK(cudaMalloc(&fout, 1 << 20));
  CHECK(cudaMalloc(&din, 1 << 20)); CHECK(cudaMalloc(&dout, 1 << 20));
  CHECK(cudaMalloc(&iin, 1 << 20)); CHECK(cudaMalloc(&iout, 1 << 20));
  CHECK(cudaMalloc(&uout, 1 << 20));
  CHECK(cudaMemset(fin, 0, 1 << 20)); CHECK(cudaMemset(din, 0, 1 << 20)); CHECK(cudaMemset(iin, 0, 1 << 20));
  // The launches, in this order (measure.sh's table follows it): block 32 unless said.
  row_copy<<<1, 32>>>(fin, fout);
  padded<<<1, 32>>>(fout);
  column_read<<<1, 32>>>(fout);
  broadcast<<<1, 32>>>(fout, 5);
  stride_two<<<1, 32>>>(fout);
  ldmatrix_x4<<<1, 32>>>(uout);
  cp_async16<<<1, 32>>>(iin, iout);
  stages<<<1, 32>>>(fout, 4);
  swizzled<<<1, 32>>>(fout);
  cp_async8<1><<<1, 32>>>(din, dout);
  cp_async8<4><<<1, 32>>>(din, dout);
  transpose_padded<<<1, 128>>>(fin, fout);
  CHECK(cudaDeviceSynchronize());
  std::printf("hand: 12 launches done\n");
  return 0;
}
