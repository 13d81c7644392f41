// Small kernels with known shared-memory behaviour, compiled to examples/ptx/kernels.ptx by
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -O3 examples/ptx/kernels.cu -o examples/ptx/kernels.ptx
// (nvcc 13.0). tests/cli/ptx_test.py checks `layoutproof ptx` on it against counts it computes
// from the formulas below on its own. Block: 32 threads unless the kernel says otherwise.
#include <cuda_pipeline.h>

// Rows of 33 floats: the stores (row i, column t) and the loads (row t, column i) are conflict-free.
__global__ void padded_rows(float* out) {
  __shared__ float s[32 * 33];
  const int t = threadIdx.x;
  for (int i = 0; i < 32; ++i) s[i * 33 + t] = t;
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 32; ++i) acc += s[t * 33 + i];
  out[t] = acc;
}

// A column of a 32x32 float tile: all 32 lanes hit bank 0, 32 wavefronts.
__global__ void column_read(float* out) {
  __shared__ float s[32 * 32];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[t * 32];
}

// Every lane reads one word: a broadcast, one wavefront.
__global__ void broadcast(float* out, int k) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[k];
}

// A stride of 2 words: 2-way conflicts.
__global__ void stride_two(float* out) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[2 * t] = t;
  __syncthreads();
  out[t] = s[2 * t];
}

// 16-byte vector loads along a row: 4 wavefronts, the ideal.
__global__ void vector_rows(float4* out) {
  __shared__ float4 s[32];
  const int t = threadIdx.x;
  s[t] = make_float4(t, t, t, t);
  __syncthreads();
  out[t] = s[t];
}

// ldmatrix.x4 over a 64-column half tile with the 128B swizzle (rows of 128 bytes, the 16-byte
// chunk XORed with the row): conflict-free, 4 wavefronts.
__global__ void ldmatrix_swizzled(unsigned* out) {
  __shared__ __align__(128) unsigned short s[32 * 64];
  const int t = threadIdx.x;
  for (int i = t; i < 32 * 64; i += 32) s[i] = i;
  __syncthreads();
  const int row = t, chunk = 0;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&s[row * 64 + ((chunk ^ (row & 7)) * 8)]));
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  out[t] = r0 + r1 + r2 + r3;
}

// cp.async of 16 bytes per lane into consecutive chunks: 4 wavefronts each.
__global__ void cp_async_rows(const float4* in, float4* out) {
  __shared__ float4 s[64];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &in[t], 16);
  __pipeline_memcpy_async(&s[t + 32], &in[t + 32], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[t] = s[t];
}

// A k-loop over a 3-stage ring buffer with a wrap-around stage counter, as CuTe's mainloops write
// it; the stores' 8-float chunks (column XOR row) only reach banks 0, 8, 16, 24: 8-way conflicts.
__global__ void ring_stages(float* out, int k_tiles) {
  __shared__ float s[3 * 8 * 32];
  const int t = threadIdx.x;
  int stage = 0;
  float acc = 0;
  for (int k = 0; k < k_tiles; ++k) {
    const int row = t / 4, col = t % 4;
    s[stage * 256 + row * 32 + ((col ^ (row & 3)) * 8)] = k;
    __syncthreads();
    acc += s[stage * 256 + t];
    __syncthreads();
    stage = stage == 2 ? 0 : stage + 1;
  }
  out[t] = acc;
}
