// NVIDIA/cuda-samples matrixMul (Samples/0_Introduction/matrixMul/matrixMul.cu): MatrixMulCUDA<16>
// and MatrixMulCUDA<32>, each launched ONCE as one CTA of BLOCK_SIZE x BLOCK_SIZE threads (the
// sample's block) computing one C tile, with wA = 4 * BLOCK_SIZE (four K steps).
#define main their_main
#include "matrixMul.cu"
#undef main
#include "check.h"

template <int BS> static void one(const char* name) {
  const int wA = 4 * BS, hA = BS, wB = BS;
  float* A = lp_buffer<float>(hA * wA);
  float* B = lp_buffer<float>(wA * wB);
  float* C = lp_buffer<float>(hA * wB);
  MatrixMulCUDA<BS><<<1, dim3(BS, BS)>>>(C, A, B, wA, wB);
  lp_check(name);
}

int main() {
  one<16>("MatrixMulCUDA<16>");
  one<32>("MatrixMulCUDA<32>");
  return 0;
}
