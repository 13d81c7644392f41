// karpathy/llm.c dev/cuda/matmul_forward.cu: kernel 4 (the register-blocked SGEMM: 128 x 128 of the
// output per CTA, 16 x 16 threads of 8 x 8 each, 128 x 32 tiles of both inputs in shared memory,
// read as float4) launched ONCE as one CTA: B*T = 128 rows, OC = 128 output channels, C = 64 (two
// 32-wide k-steps). cuBLAS is linked (the file's versions 2 and 3) but never called.
#define main their_main
#include "matmul_forward.cu"
#undef main
#include "check.h"

int main() {
  const int BT = 128, C = 64, OC = 128;
  float* inp = lp_buffer<float>(BT * C);
  float* weight = lp_buffer<float>(OC * C);
  float* bias = lp_buffer<float>(OC);
  float* out = lp_buffer<float>(BT * OC, 0.0);
  matmul_forward_kernel4<<<dim3(BT / 128, OC / 128), dim3(16, 16)>>>(out, inp, weight, bias, C, OC);
  lp_check("matmul_forward kernel 4");
  return 0;
}
