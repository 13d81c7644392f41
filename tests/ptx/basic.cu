// Small kernels with known shared-memory behaviour. Generated PTX (commit both):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/basic.ptx tests/ptx/basic.cu &&
//   sed -i "s|$PWD/||" tests/ptx/basic.ptx      (run from the repository root; nvcc 13.0; the sed keeps
// the .file paths relative). tests/cli/ptx_test.sh checks `layoutproof ptx` on it against counts that it computes
// by brute force from the formulas written beside each kernel, never from the tool.
#include <cuda_pipeline.h>

// A row copy: thread t stores and loads word t. Conflict-free (one wavefront per warp instruction).
__global__ void row_copy(const float* in, float* out) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[(t + 1) % 256];
}

// A padded 32x33 tile: rows written along t, read down a column t. Conflict-free both ways.
__global__ void padded(float* out) {
  __shared__ float s[32 * 33];
  const int t = threadIdx.x;
  for (int i = 0; i < 32; ++i) s[i * 33 + t] = t;
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 32; ++i) acc += s[t * 33 + i];
  out[t] = acc;
}

// A column of an unpadded 32x32 tile: every lane in bank 0, 32 wavefronts.
__global__ void column_read(float* out) {
  __shared__ float s[32 * 32];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[t * 32];
}

// Every lane reads word k (a parameter): a broadcast, one wavefront.
__global__ void broadcast(float* out, int k) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t % 64] = t;
  __syncthreads();
  out[t] = s[k];
}

// A stride of two words: lanes t and t + 16 share a bank, 2 wavefronts.
__global__ void stride_two(float* out) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[2 * t] = t;
  __syncthreads();
  out[t] = s[2 * t + 1];
}

// ldmatrix.x4 of four 8x8 b16 matrices stored row-major with 64-byte rows (32 halves): lane l gives
// row (l % 8) of matrix (l / 8) at byte (l % 8) * 64 + (l / 8) * 16. Rows r, r+2, r+4, r+6 of a
// matrix share banks (128 bytes apart): 4 wavefronts per matrix, 16 for an ideal of 4.
__global__ void ldmatrix_x4(unsigned* out) {
  __shared__ __align__(16) unsigned short s[8 * 32];
  const int t = threadIdx.x;
  for (int i = t; i < 8 * 32; i += 32) s[i] = i;
  __syncthreads();
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(s)) + (t % 8) * 64 + (t / 8) * 16;
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  out[t] = r0 + r1 + r2 + r3;
}

// cp.async of 16 bytes per thread into consecutive 16-byte chunks: 4 wavefronts (one per quarter warp).
__global__ void cp_async16(const int4* in, int4* out) {
  __shared__ int4 s[128];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &in[t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s[(t + 5) % 128];
}

// A k-loop over a 3-stage ring with a wrap-around stage counter, as CuTe's mainloops keep it:
// iteration k writes stage (k % 3) at word stage * 128 + t. k_tiles is a parameter.
__global__ void stages(float* out, int k_tiles) {
  __shared__ float s[3 * 128];
  const int t = threadIdx.x;
  int stage = 0;
  float acc = 0;
  for (int k = 0; k < k_tiles; ++k) {
    s[stage * 128 + t] = k;
    __syncthreads();
    acc += s[stage * 128 + (t ^ 1)];
    stage = stage == 2 ? 0 : stage + 1;
  }
  out[t] = acc;
}

// A CuTe-style swizzle Swizzle<5,0,5> on a 32x32 float tile: element (r, c) lives at word
// r * 32 + (c ^ r). Writing row r along c and reading column c down r are both conflict-free.
__global__ void swizzled(float* out) {
  __shared__ float s[32 * 32];
  const int t = threadIdx.x;
  for (int r = 0; r < 32; ++r) {
    const int i = r * 32 + t;
    s[i ^ ((i >> 5) & 31)] = r;
  }
  __syncthreads();
  float acc = 0;
  for (int r = 0; r < 32; ++r) {
    const int i = t * 32 + r;
    acc += s[i ^ ((i >> 5) & 31)];
  }
  out[t] = acc;
}
