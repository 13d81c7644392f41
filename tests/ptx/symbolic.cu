// Kernels whose shared-memory addresses depend on a free parameter k (layoutproof ptx without
// --param decides them for every k: docs/compiled.md "Free parameters"). Generated PTX (commit both):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/symbolic.ptx tests/ptx/symbolic.cu &&
//   sed -i "s|$PWD/||" tests/ptx/symbolic.ptx      (run from the repository root; nvcc 13.0)
// and its SASS (commit it too; cuobjdump is on the GPU machine's toolkit, CUDA 13.0):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -lineinfo -o symbolic.cubin tests/ptx/symbolic.cu &&
//   cuobjdump -sass symbolic.cubin > tests/ptx/symbolic.sass
// tests/cli/ptx_symbolic_test.py and sass_symbolic_test.py check each verdict against the kernel run
// with every k of a range.

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

// ldmatrix.x1 of the 8x8 b16 matrix k of a tile of two (16-byte rows, 128 bytes a matrix): lanes
// 0-7 give the rows, at byte 16 * t + 128 * k. Lanes 8-31 give no address (the instruction ignores
// them); here they compute a misaligned one outside the tile (16 * t + 4 * (t / 8) + 128 * k),
// which no claim may read. Aligned for every k, in bounds for k = 0, 1, conflict-free (each row's
// 16 bytes in 4 banks of its own).
__global__ void ldsm_x1_k(unsigned* out, int k) {
  __shared__ __align__(16) unsigned short s[2 * 64];
  const int t = threadIdx.x;
  for (int i = t; i < 2 * 64; i += 32) s[i] = i;
  __syncthreads();
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(s)) + 16 * t + 4 * (t / 8) + 128 * k;
  unsigned r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
  out[t] = r0;
}

// ldmatrix.x2 of matrices 2k and 2k + 1 of a tile of four: lanes 0-15 give the rows, at byte
// 16 * t + 256 * k; lanes 16-31 compute 16 * t + 4 * (t / 16) + 256 * k (no address). Aligned for
// every k, in bounds for k = 0, 1, conflict-free.
__global__ void ldsm_x2_k(unsigned* out, int k) {
  __shared__ __align__(16) unsigned short s[4 * 64];
  const int t = threadIdx.x;
  for (int i = t; i < 4 * 64; i += 32) s[i] = i;
  __syncthreads();
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(s)) + 16 * t + 4 * (t / 16) + 256 * k;
  unsigned r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr));
  out[t] = r0 + r1;
}

// stmatrix.x2 (sm_90) of two matrices at row k of 8-row blocks, rows 32 bytes apart (a 2-way
// pattern: rows r and r + 4 of a matrix share banks): lanes 0-15 give row addresses
// 32 * (t % 8) + 16 * (t / 8) + 256 * k, lanes 16-31 a misaligned 16 * t + 2 (no address). Aligned
// for every k, in bounds for k = 0, 1; max-ways:2 holds, conflict-free does not.
__global__ void stsm_x2_k(unsigned* out, int k) {
  __shared__ __align__(16) unsigned short s[4 * 64];
  const int t = threadIdx.x;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s));
  const unsigned addr = base + (t < 16 ? 32 * (t % 8) + 16 * (t / 8) : 16 * t + 2) + 256 * k;
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(t), "r"(t + 1));
  __syncthreads();
  out[t] = s[t];
}

// Bit operations on a row term 32 * k whose low 5 bits are known to be 0 (lanes t < 32): t XOR,
// OR or AND onto them is still affine in k (xor/or: 32 * k + t; and: a truncation). ptxas writes
// these with LOP3/LEA, nvcc's PTX with xor/or/and.
// Lane t reads word (32 * k) ^ t: conflict-free for every k, in bounds for k = 0..3.
__global__ void xor_row_k(float* out, int k) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(32 * k) ^ t];
}

// Lane t writes word (k << 5) | t: conflict-free for every k, in bounds for k = 0..3 (unsigned k).
__global__ void or_row_k(float* out, unsigned k) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[(k << 5) | t] = t;
  __syncthreads();
  out[t] = s[t];
}

// Lane t reads word (32 * k + t) & ~7: lanes 8i..8i+7 share word 32 * k + 8i (k's term keeps its
// bits, the mask clears t's known low bits): conflict-free (one word per group), in bounds for
// k = 0..3. (An AND that truncates the term, (16 * k) & 0x3f0, is a term of 10 bits that the next
// 32-bit add cannot keep: UNKNOWN, as for any value not affine in k.)
__global__ void and_row_k(float* out, int k) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[(32 * k + t) & ~7];
}
