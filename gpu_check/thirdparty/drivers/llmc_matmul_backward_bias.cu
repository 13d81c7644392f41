// karpathy/llm.c dev/cuda/matmul_backward_bias.cu (BF16, as the file defines): versions 1-4 and 7-9
// through the file's own dispatcher matmul_backward_bias(kernel_num, ...), each ONCE with B = 1,
// T = 32 and an OC that makes its launcher's grid one CTA: 1 (versions 1-3: grids OC and
// ceil(32 OC / 128)), 32 (version 4: OC / 32), 256 (version 7: ceil(OC / 256), then its
// cast_and_add_kernel, ceil(OC / 256)), 64 (versions 8, 9: ceil(OC / 64)). The "full GPU" grid
// heights come from cuda_threads_per_SM, which the driver leaves 0 (setup_main is not run), so they
// are max(1, 0) = 1. Version 5 is not compiled under BF16.
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "matmul_backward_bias.cu"
#undef main
#include "check.h"

int main() {
  const int B = 1, T = 32, block = 128;
  floatX* dout = lp_buffer<floatX>(B * T * 256);
  floatX* dbias = lp_buffer<floatX>(256, 0.0);
  dbias_buffer = lp_buffer<float>(256, 0.0);
  const int kernels[] = {1, 2, 3, 4, 7, 8, 9};
  const int ocs[] = {1, 1, 1, 32, 256, 64, 64};
  char name[64];
  for (int i = 0; i < 7; ++i) {
    matmul_backward_bias(kernels[i], dbias, dout, B, T, ocs[i], block);
    std::snprintf(name, sizeof name, "matmul_backward_bias kernel %d", kernels[i]);
    lp_check(name);
  }
  return 0;
}
