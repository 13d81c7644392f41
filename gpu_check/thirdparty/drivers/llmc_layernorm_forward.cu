// karpathy/llm.c dev/cuda/layernorm_forward.cu: all six versions through the file's own dispatcher
// layernorm_forward(kernel_num, ...), each ONCE on one row (B = T = 1) of C = 256 channels, so
// every launcher's grid is one CTA (version 2 launches mean_kernel, rstd_kernel and
// normalization_kernel, the last with ceil(C / 256) = 1 CTA); block 128.
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "layernorm_forward.cu"
#undef main
#include "check.h"

int main() {
  const int B = 1, T = 1, C = 256, block = 128;
  float* inp = lp_buffer<float>(B * T * C);
  float* out = lp_buffer<float>(B * T * C);
  float* weight = lp_buffer<float>(C);
  float* bias = lp_buffer<float>(C);
  float* mean = lp_buffer<float>(B * T);
  float* rstd = lp_buffer<float>(B * T);
  char name[64];
  for (int k = 1; k <= 6; ++k) {
    layernorm_forward(k, out, mean, rstd, inp, weight, bias, B, T, C, block);
    std::snprintf(name, sizeof name, "layernorm_forward kernel %d", k);
    lp_check(name);
  }
  return 0;
}
