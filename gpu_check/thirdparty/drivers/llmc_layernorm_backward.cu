// karpathy/llm.c dev/cuda/layernorm_backward.cu (BF16, as the file defines): versions 2-9 through
// the file's own dispatcher layernorm_backward(kernel_num, ...), each ONCE. The launchers size
// their grids as (1024 / block) * cuda_num_SMs; the driver sets cuda_num_SMs = 1 and block 1024,
// so each grid is one CTA (version 2: ceil(32 * B * T / 1024) = 1 with B * T = 32). Version 10
// turns block 1024 into 512 (a grid of two), so the driver launches its kernel directly with the
// launcher's block and shared-memory size and one CTA. Sizes: B = 1, T = 32, C = 768 (GPT-2's).
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "layernorm_backward.cu"
#undef main
#include "check.h"

int main() {
  const int B = 1, T = 32, C = 768, block = 1024;
  cuda_num_SMs = 1;
  floatX* dinp = lp_buffer<floatX>(B * T * C, 0.0);
  floatX* dweight = lp_buffer<floatX>(C, 0.0);
  floatX* dbias = lp_buffer<floatX>(C, 0.0);
  floatX* dout = lp_buffer<floatX>(B * T * C);
  floatX* inp = lp_buffer<floatX>(B * T * C);
  floatX* weight = lp_buffer<floatX>(C);
  floatX* mean = lp_buffer<floatX>(B * T);
  floatX* rstd = lp_buffer<floatX>(B * T);
  float* scratch = lp_buffer<float>((1024 / 32) * 4 * (2 * C + 1), 0.0);
  char name[64];
  for (int k = 2; k <= 9; ++k) {
    layernorm_backward(k, dinp, dweight, dbias, scratch, dout, inp, weight, mean, rstd, B, T, C, block);
    std::snprintf(name, sizeof name, "layernorm_backward kernel %d", k);
    lp_check(name);
  }
  // layernorm_backward10's own sizes for block 512, with one CTA.
  const int block10 = 512;
  const size_t rounded_C = ceil_div(C, (32 * x128::size)) * (32 * x128::size);
  const size_t smem10 = (2 * rounded_C + 2 * (block10 - 32) * f128::size) * sizeof(float);
  cudaMemset(scratch, 0, sizeof(float));
  layernorm_backward_kernel10<<<1, block10, smem10>>>(dinp, dweight, dbias, scratch, dout, inp, weight, mean, rstd, B, T, C);
  lp_check("layernorm_backward kernel 10");
  return 0;
}
