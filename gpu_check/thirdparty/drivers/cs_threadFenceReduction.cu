// NVIDIA/cuda-samples threadFenceReduction (Samples/2_Concepts_and_Techniques/threadFenceReduction/
// threadFenceReduction_kernel.cuh): the sample's own reduce (reduceMultiPass) and reduceSinglePass
// (the __threadfence last-block reduction), each launched ONCE with blocks = 1, 128 threads.
#include <helper_cuda.h>
#include "threadFenceReduction_kernel.cuh"
#include "check.h"

int main() {
  const int threads = 128, size = 8 * threads;
  float* in = lp_buffer<float>(size);
  float* out = lp_buffer<float>(size);
  reduce(size, threads, 1, in, out);
  lp_check("reduceMultiPass (reduce)");
  reduceSinglePass(size, threads, 1, in, out);
  lp_check("reduceSinglePass");
  return 0;
}
