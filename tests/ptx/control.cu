// Kernels whose stores overlap or whose warps diverge. Generated PTX (commit both):
//   /usr/local/cuda/bin/nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/control.ptx tests/ptx/control.cu &&
//   sed -i "s|$PWD/||" tests/ptx/control.ptx      (run from the repository root; nvcc 13.0)
// tests/cli/ptx_test.sh checks `layoutproof ptx` on it: no-overlap with equal, different and
// unknown data; the if/else's stores issue per path (16 lanes each) and the load after the join
// issues once for all 32 lanes, with the wavefronts worked out beside each kernel.
__global__ void equal_pairs(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t / 2] = t / 2;  // lanes 2i and 2i+1 write word i with the same value: not a conflict
  __syncthreads();
  out[t] = s[(t + 1) % 16];
}
__global__ void racy_pairs(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t / 2] = t;  // lanes 2i and 2i+1 write word i with different values
  __syncthreads();
  out[t] = s[(t + 1) % 16];
}
__global__ void loaded_pairs(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t / 2] = in[t];  // equal or not: not known
  __syncthreads();
  out[t] = s[(t + 1) % 16];
}
__global__ void if_else(const int* in, int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  if (t % 32 < 16) {
    s[t * 2] = in[t] + 1;
    out[t + 64] = in[t + 32] * 3;
  } else {
    s[t * 3 % 128] = in[t] * 5;
    out[t + 128] = in[t + 96] - 7;
  }
  // Lanes 0-15 store at word 2t (banks 0, 2, ..., 30: 1 wavefront); lanes 16-31 at word 3t % 128
  // (words 48, 51, ..., 93: banks 16, 19, 22, 25, 28, 31, 2, 5, ..., 29, all distinct: 1 wavefront).
  // After the join, one 32-lane load at word 4t % 128: banks 4t % 32, so lanes t, t+8, t+16, t+24
  // read 4 distinct words of one bank: 4 wavefronts (ideal 1).
  out[t] = s[(t * 4) % 128];
}
