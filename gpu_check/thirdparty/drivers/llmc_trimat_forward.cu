// karpathy/llm.c dev/cuda/trimat_forward.cu: the four hand-written triangular matmuls (naive,
// registers, 3 and 4, the last two tiled in shared memory) through the file's own trimul_launcher,
// each ONCE on B = 1, NH = 1, T = 128, C = 64 (head size 64): a grid of one CTA of 16 x 16 threads.
// cuBLAS is linked (the file's baseline) but never called.
#define main their_main
#include "trimat_forward.cu"
#undef main
#include "check.h"

int main() {
  const int B = 1, T = 128, C = 64, NH = 1;
  float* inp = lp_buffer<float>(B * T * 3 * C);
  float* out = lp_buffer<float>(B * NH * T * T, 0.0);
  trimul_launcher<matmul_tri_naive>(out, inp, B, T, C, NH);
  lp_check("trimat_forward naive");
  trimul_launcher<matmul_tri_registers>(out, inp, B, T, C, NH);
  lp_check("trimat_forward registers");
  trimul_launcher<matmul_tri3>(out, inp, B, T, C, NH);
  lp_check("trimat_forward 3");
  trimul_launcher<matmul_tri4>(out, inp, B, T, C, NH);
  lp_check("trimat_forward 4");
  return 0;
}
