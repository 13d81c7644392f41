// karpathy/llm.c dev/cuda/global_norm.cu (BF16, as the file defines): versions 1-4 through the
// file's own dispatcher global_norm(kernel_num, ...), each ONCE on 4096 values with block 256. Its
// launchers size the grid to fill the GPU, threads per SM * SMs / block; the driver sets those
// (cuda_threads_per_SM, cuda_num_SMs, and the deviceProp fields versions 3 and 4 read) to one SM
// of 256 threads, so each grid is one CTA (version 4 then runs global_norm_aggregate_kernel
// over that one block's sum).
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "global_norm.cu"
#undef main
#include "check.h"

int main() {
  const int block = 256;
  const size_t count = 4096;
  cuda_threads_per_SM = block;
  cuda_num_SMs = 1;
  deviceProp.maxThreadsPerMultiProcessor = block;
  deviceProp.multiProcessorCount = 1;
  floatX* values = lp_buffer<floatX>(count);
  float* out = lp_buffer<float>(1024, 0.0);
  char name[64];
  for (int k = 1; k <= 4; ++k) {
    cudaMemset(out, 0, 1024 * sizeof(float));
    global_norm(k, out, values, count, block);
    std::snprintf(name, sizeof name, "global_norm kernel %d", k);
    lp_check(name);
  }
  return 0;
}
