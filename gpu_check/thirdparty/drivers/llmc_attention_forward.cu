// karpathy/llm.c dev/cuda/attention_forward.cu: attention_forward_kernel2 (flash attention 1: Q, K,
// V and S tiles in dynamic shared memory) launched ONCE as one CTA: B = 1, nh = 1, N = 64, d = 32,
// Bc = Br = 32 (Tc = Tr = 2), Br threads; and softmax_forward_kernel4 (a warp-reduction softmax
// over one row of 128, its partial maxima and sums in shared memory) on one row with 256 threads.
// cuBLAS is linked (the file's versions 3-5) but never called.
#define main their_main
#include "attention_forward.cu"
#undef main
#include "check.h"

int main() {
  const int N = 64, d = 32, Bc = 32, Br = 32, Tc = N / Bc, Tr = N / Br;
  float* q = lp_buffer<float>(N * d);
  float* k = lp_buffer<float>(N * d);
  float* v = lp_buffer<float>(N * d);
  float* l = lp_buffer<float>(N, 0.0);
  float* m = lp_buffer<float>(N, 0.0);
  float* o = lp_buffer<float>(N * d, 0.0);
  const int sram = (3 * Bc * d + Bc * Br) * sizeof(float);
  attention_forward_kernel2<<<dim3(1, 1), dim3(Br), sram>>>(q, k, v, N, d, Tc, Tr, Bc, Br, 1.0f / sqrtf(d), l, m, o);
  lp_check("attention_forward kernel 2");
  const int C = 128, block = 256;
  float* inp = lp_buffer<float>(C);
  float* att = lp_buffer<float>(C, 0.0);
  softmax_forward_kernel4<<<1, block, 2 * block / 32 * sizeof(float)>>>(att, inp, 1, C);
  lp_check("softmax_forward kernel 4");
  return 0;
}
