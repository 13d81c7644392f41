// NVIDIA/cuda-samples fastWalshTransform (Samples/5_Domain_Specific/fastWalshTransform/
// fastWalshTransform_kernel.cuh): the sample's own fwtBatchGPU on one vector of 2^11 elements, so
// its only launch is fwtBatch1Kernel as one CTA of 512 threads with 8 KiB of dynamic shared memory.
#include <helper_cuda.h>
#include "fastWalshTransform_kernel.cuh"
#include "check.h"

int main() {
  float* data = lp_buffer<float>(1 << ELEMENTARY_LOG2SIZE);
  fwtBatchGPU(data, 1, ELEMENTARY_LOG2SIZE);
  lp_check("fwtBatch1Kernel (fwtBatchGPU)");
  return 0;
}
