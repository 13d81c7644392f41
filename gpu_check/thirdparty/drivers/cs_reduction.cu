// NVIDIA/cuda-samples reduction (Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu):
// reduce0..reduce7, cg_reduce (cooperative groups) and multi_warp_cg_reduce, each launched ONCE
// through the sample's own reduce<float>(size, threads, blocks, whichKernel, ...) with blocks = 1
// and 256 threads (its shared-memory size, its template block size).
#include "reduction_kernel.cu"
#include "check.h"

// The sample's reduction.cpp defines isPow2; the driver does not link that file.
extern "C" bool isPow2(unsigned int x) { return (x & (x - 1)) == 0; }

int main() {
  const int threads = 256, size = 4 * threads;
  float* in = lp_buffer<float>(size);
  float* out = lp_buffer<float>(size);
  const char* names[] = {"reduce0", "reduce1", "reduce2", "reduce3", "reduce4",
                         "reduce5", "reduce6", "reduce7", "cg_reduce", "multi_warp_cg_reduce"};
  for (int k = 0; k <= 9; ++k) {
    reduce<float>(size, threads, 1, k, in, out);
    lp_check(names[k]);
  }
  return 0;
}
