// NVIDIA/cutlass examples/cute/tutorial/sgemm_sm80.cu: its SM80 TN HGEMM (half: cp.async 16 B into a
// swizzled tile, ldmatrix, mma.sync) and its SGEMM (float: 4-byte cp.async, padded tiles) through
// the file's own gemm_tn and gemm_nt, each ONCE as one CTA: m = n = 128, k = 128 (HGEMM) and 64
// (SGEMM). capture_params.h prints each launch's parameter buffer (CuTe passes its layouts and
// tiled copies by value).
#include "capture_params.h"
#define main their_main
#include "sgemm_sm80.cu"
#undef main
#include "check.h"

int main() {
  const int m = 128, n = 128;
  {
    const int k = 128;
    cute::half_t* A = lp_buffer<cute::half_t>(m * k);
    cute::half_t* B = lp_buffer<cute::half_t>(n * k);
    cute::half_t* C = lp_buffer<cute::half_t>(m * n, 0.0);
    gemm_tn(m, n, k, cute::half_t(1.0f), A, k, B, k, cute::half_t(0.0f), C, m);
    lp_check("sgemm_sm80 hgemm_tn");
  }
  const int k = 64;
  float* A = lp_buffer<float>(m * k);
  float* B = lp_buffer<float>(n * k);
  float* C = lp_buffer<float>(m * n, 0.0);
  gemm_nt(m, n, k, 1.0f, A, m, B, n, 0.0f, C, m);
  lp_check("sgemm_sm80 gemm_nt");
  gemm_tn(m, n, k, 1.0f, A, k, B, k, 0.0f, C, m);
  lp_check("sgemm_sm80 gemm_tn");
  return 0;
}
