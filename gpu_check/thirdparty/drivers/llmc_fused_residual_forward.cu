// karpathy/llm.c dev/cuda/fused_residual_forward.cu (BF16, as the file defines): versions 2-6
// through the file's own dispatcher fused_residual_forward(kernel_num, ...), each ONCE on N = 4
// rows of C = 768 with block 128, so each launcher's grid is one CTA: ceil(N / 128) (version 2),
// ceil(N / (block / 32)) (3-5), max(1, cuda_threads_per_SM * cuda_num_SMs / block) with those left
// 0 (6). Version 1's residual kernel needs ceil(N * C / block) CTAs, so it is not launched.
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "fused_residual_forward.cu"
#undef main
#include "check.h"

int main() {
  const int N = 4, C = 768, block = 128;
  floatX* residual = lp_buffer<floatX>(N * C, 0.0);
  floatX* normed = lp_buffer<floatX>(N * C, 0.0);
  floatX* mean = lp_buffer<floatX>(N, 0.0);
  floatX* rstd = lp_buffer<floatX>(N, 0.0);
  floatX* inp1 = lp_buffer<floatX>(N * C);
  floatX* inp2 = lp_buffer<floatX>(N * C);
  floatX* weight = lp_buffer<floatX>(C);
  floatX* bias = lp_buffer<floatX>(C);
  char name[64];
  for (int k = 2; k <= 6; ++k) {
    fused_residual_forward(k, residual, normed, mean, rstd, inp1, inp2, weight, bias, N, C, block);
    std::snprintf(name, sizeof name, "fused_residual_forward kernel %d", k);
    lp_check(name);
  }
  return 0;
}
