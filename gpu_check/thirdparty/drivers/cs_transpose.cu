// NVIDIA/cuda-samples transpose (Samples/6_Performance/transpose/transpose.cu): every kernel with a
// shared tile (copySharedMem, transposeCoalesced, the padded transposeNoBankConflicts,
// transposeDiagonal, transposeFineGrained, transposeCoarseGrained), each launched ONCE on a
// 32 x 32 matrix: one TILE_DIM tile, so the sample's grid (width / TILE_DIM, height / TILE_DIM) is
// one CTA of its block (TILE_DIM, BLOCK_ROWS).
#define main their_main
#include "transpose.cu"
#undef main
#include "check.h"

int main() {
  const int width = TILE_DIM, height = TILE_DIM;
  float* in = lp_buffer<float>(width * height);
  float* out = lp_buffer<float>(width * height);
  const dim3 grid(width / TILE_DIM, height / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  copySharedMem<<<grid, block>>>(out, in, width, height); lp_check("copySharedMem");
  transposeCoalesced<<<grid, block>>>(out, in, width, height); lp_check("transposeCoalesced");
  transposeNoBankConflicts<<<grid, block>>>(out, in, width, height); lp_check("transposeNoBankConflicts");
  transposeDiagonal<<<grid, block>>>(out, in, width, height); lp_check("transposeDiagonal");
  transposeFineGrained<<<grid, block>>>(out, in, width, height); lp_check("transposeFineGrained");
  transposeCoarseGrained<<<grid, block>>>(out, in, width, height); lp_check("transposeCoarseGrained");
  return 0;
}
