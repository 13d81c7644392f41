// NVIDIA/cutlass examples/cute/tutorial/sgemm_1.cu: its SGEMM (float) through the file's own gemm_nt and
// gemm_tn, each ONCE on m = n = 128, k = 64: one CTA of the 128 x 128 tile. CuTe passes shapes,
// strides, layouts and tiled copies by value, so capture_params.h prints each launch's parameter
// buffer (the words gpu_check/thirdparty/launches.txt gives the SASS run).
#include "capture_params.h"
#define main their_main
#include "sgemm_1.cu"
#undef main
#include "check.h"

int main() {
  const int m = 128, n = 128, k = 64;
  float* A = lp_buffer<float>(m * k);
  float* B = lp_buffer<float>(n * k);
  float* C = lp_buffer<float>(m * n, 0.0);
  gemm_nt(m, n, k, 1.0f, A, m, B, n, 0.0f, C, m);
  lp_check("sgemm_1 gemm_nt");
  gemm_tn(m, n, k, 1.0f, A, k, B, k, 0.0f, C, m);
  lp_check("sgemm_1 gemm_tn");
  return 0;
}
