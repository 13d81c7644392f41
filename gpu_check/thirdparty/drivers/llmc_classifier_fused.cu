// karpathy/llm.c dev/cuda/classifier_fused.cu: versions 1-5 through the file's own dispatcher
// fused_classifier(kernel_num, ...), each ONCE on one row (B = T = 1) of V = P = 256 logits, so
// every launcher's grid is one CTA: N = 1 for versions 2-5 (block 128), N / (block / 32) = 1 for
// version 1 (block 32).
#include "cublas_never_called.h"
LP_NEVER(cublasStatus_t, cublasCreate_v2, cublasHandle_t*)
LP_NEVER(cublasStatus_t, cublasLtCreate, cublasLtHandle_t*)
LP_NEVER(cublasStatus_t, cublasSetMathMode, cublasHandle_t, cublasMath_t)
#define main their_main
#include "classifier_fused.cu"
#undef main
#include "check.h"

int main() {
  const int B = 1, T = 1, V = 256, P = 256;
  float* logits = lp_buffer<float>(B * T * P);
  float* dlogits = lp_buffer<float>(B * T * P);
  float* losses = lp_buffer<float>(B * T);
  float* dlosses = lp_buffer<float>(B * T);
  int* targets = lp_buffer<int>(B * T, 1.0);
  char name[64];
  for (int k = 1; k <= 5; ++k) {
    fused_classifier(k, dlogits, losses, logits, dlosses, targets, B, T, V, P, k == 1 ? 32 : 128);
    std::snprintf(name, sizeof name, "fused_classifier kernel %d", k);
    lp_check(name);
  }
  return 0;
}
