// karpathy/llm.c dev/cuda/softmax_forward.cu: all eight kernels through the file's own dispatcher
// softmax_forward(kernel_num, ...), each launched ONCE on one row (N = 1) of C = 256, so every
// launcher's grid (N, or ceil(N * 32 / block)) is one CTA; block 128 (kernel 3 forces 32).
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "softmax_forward.cu"
#undef main
#include "check.h"

int main() {
  const int N = 1, C = 256, block = 128;
  float* inp = lp_buffer<float>(N * C);
  float* out = lp_buffer<float>(N * C);
  char name[64];
  for (int k = 1; k <= 8; ++k) {
    softmax_forward(k, out, inp, N, C, block);
    std::snprintf(name, sizeof name, "softmax_forward kernel %d", k);
    lp_check(name);
  }
  return 0;
}
