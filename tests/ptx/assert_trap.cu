// An assert on a kernel parameter, as llm.c's kernels write it: printf from one thread, then
// __trap() from every thread, before the kernel's shared-memory work. The trapping side touches no
// shared memory (printf writes the global printf buffer), so the claims are decided for every n:
// launches where n % 32 != 0 end at the trap. Compiled by
//   nvcc -arch=sm_90 -ptx -lineinfo -o tests/ptx/assert_trap.ptx tests/ptx/assert_trap.cu   (CUDA 13.0; the .file path made relative)
#include <cstdio>

__global__ void checked_transpose(float* out, const float* in, int n) {
  if (n % 32 != 0) {
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("n = %d is not a multiple of 32\n", n);
    __trap();
  }
  __shared__ float tile[32][33];
  const int x = threadIdx.x % 32, y = threadIdx.x / 32;
  tile[y][x] = in[(blockIdx.x * 32 + y) * n + x];
  __syncthreads();
  out[(blockIdx.x * 32 + x) * n + y] = tile[x][y];
}
