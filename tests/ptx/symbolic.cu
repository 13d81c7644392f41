// Kernels whose shared-memory addresses depend on a free parameter k (layoutproof ptx without
// --param decides them for every k: docs/compiled.md "Free parameters"). Generated PTX (commit both):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/symbolic.ptx tests/ptx/symbolic.cu &&
//   sed -i "s|$PWD/||" tests/ptx/symbolic.ptx      (run from the repository root; nvcc 13.0)
// tests/cli/ptx_symbolic_test.py checks each verdict against the kernel run with every k of a range.

// Lane t reads word t * k: per lane an affine term in k (coefficient t). k = 0: a broadcast; k odd:
// 32 distinct banks; k = 32: every lane in bank 0 at a different word, 32 ways.
__global__ void tid_times_k(float* out, int k) {
  __shared__ float s[1024];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[t * k];
}

// Lane t reads word 2 * t + k: a stride of two words shifted by k, 2-way for every k.
__global__ void shifted_stride(float* out, int k) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[2 * t + k];
}

// Lane t writes word t + 32 * k, k an unsigned row: conflict-free for every k; in bounds only for
// k < 4 (rows of 32 words, 4 rows).
__global__ void row_k(float* out, unsigned k) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[t + 32 * k] = t;
  __syncthreads();
  out[t] = s[t];
}

// A byte offset k into a float tile: aligned only when k is a multiple of 4.
__global__ void byte_offset(float* out, int k) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = *reinterpret_cast<float*>(reinterpret_cast<char*>(s) + 4 * t + k);
}

// k decides a branch: never decided symbolically (UNKNOWN with the reason).
__global__ void branch_on_k(float* out, int k) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  if (k > 3) s[t] = t;
  __syncthreads();
  out[t] = s[t];
}

// k >> 1 is not affine in k: UNKNOWN with the reason.
__global__ void shift_right(float* out, int k) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(k >> 1) + t];
}
